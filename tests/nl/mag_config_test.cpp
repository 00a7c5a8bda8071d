// MagConfig's bounds (nl/mag_config.hpp): the vocabulary, whose size sets the embedding's and the
// output projection's.
#include <doctest/doctest.h>

#include <string>

#include "nl/mag_config.hpp"

TEST_CASE("mag_config: the vocab is 2..2^20; outside, the message says what the size costs") {
  nl::MagConfig c;
  c.rule_cfg.d = c.d;
  CHECK(nl::validate(c).ok());
  for (std::size_t v : {nl::kMinVocab, std::size_t{256}, std::size_t{1000}, nl::kMaxVocab}) {
    c.vocab = v;
    CHECK_MESSAGE(nl::validate(c).ok(), v);
  }
  for (std::size_t v : {std::size_t{0}, std::size_t{1}, nl::kMaxVocab + 1}) {
    c.vocab = v;
    const common::Status s = nl::validate(c);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code() == common::ErrorCode::invalid_argument);
    CHECK(s.error().message() == "mag config: vocab: must be in 2..1048576, got " + std::to_string(v) +
                                     " (the embedding and the output projection hold vocab x d floats each)");
  }
}

TEST_CASE("mag_config: vocab x d is bounded: the largest vocab at d = 32, not at d = 64") {
  nl::MagConfig c;
  c.vocab = nl::kMaxVocab, c.d = 32, c.heads = 2, c.rule_cfg.d = 32;
  CHECK(nl::validate(c).ok());
  c.vocab = 32768, c.d = 1024, c.rule_cfg.d = 1024, c.rule_cfg.d_c = 16;
  CHECK(nl::validate(c).ok());
  c.vocab = 32769;
  CHECK_FALSE(nl::validate(c).ok());
  c.vocab = nl::kMaxVocab, c.d = 64, c.rule_cfg.d = 64;
  const common::Status s = nl::validate(c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message() == "mag config: vocab: vocab x d = 1048576 x 64 = 67108864 floats in the embedding (and as many in "
                               "the output projection); at most 33554432");
}
