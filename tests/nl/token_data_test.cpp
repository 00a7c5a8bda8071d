// Token data (nl/token_data.hpp): ids are little-endian whatever the host; a partial token and an
// id outside the vocabulary are refused naming where they are.
#include <doctest/doctest.h>

#include <string>

#include "nl/mag_config.hpp"  // kMaxVocab
#include "nl/token_data.hpp"

TEST_CASE("token_data: u16 and u32 ids are little-endian; bytes are themselves") {
  const std::string d("\x01\x02\x03\x04\xff\x80\x00\x00", 8);
  CHECK(nl::token_count(d, nl::TokenFormat::bytes) == 8);
  CHECK(nl::token_at(d, nl::TokenFormat::bytes, 4) == 0xff);
  CHECK(nl::token_count(d, nl::TokenFormat::u16) == 4);
  CHECK(nl::token_at(d, nl::TokenFormat::u16, 0) == 0x0201);
  CHECK(nl::token_at(d, nl::TokenFormat::u16, 2) == 0x80ff);
  CHECK(nl::token_count(d, nl::TokenFormat::u32) == 2);
  CHECK(nl::token_at(d, nl::TokenFormat::u32, 0) == 0x04030201);
  CHECK(nl::token_at(d, nl::TokenFormat::u32, 1) == 0x80ff);
  for (auto f : {nl::TokenFormat::bytes, nl::TokenFormat::u16, nl::TokenFormat::u32}) {
    CHECK(nl::parse_token_format(nl::token_format_name(f)) == f);
  }
  CHECK_FALSE(nl::parse_token_format("u8").has_value());
  CHECK_FALSE(nl::parse_token_format("U16").has_value());
}

TEST_CASE("token_data: a partial token and the first id outside the vocab are refused, naming where") {
  const std::string odd("\x01\x00\x02", 3);
  auto s = nl::check_tokens(odd, nl::TokenFormat::u16, 1000);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code() == common::ErrorCode::malformed);
  CHECK(s.error().message() == "holds 3 bytes, not a whole number of 2-byte u16 tokens");
  CHECK_FALSE(nl::check_tokens(std::string(6, '\0'), nl::TokenFormat::u32, 1000).ok());

  std::string ids;
  for (unsigned id : {5u, 999u, 1000u, 1001u}) ids += static_cast<char>(id & 0xff), ids += static_cast<char>(id >> 8);
  CHECK(nl::check_tokens(ids.substr(0, 4), nl::TokenFormat::u16, 1000).ok());
  s = nl::check_tokens(ids, nl::TokenFormat::u16, 1000);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message() == "token 2 (byte offset 4) is id 1000, outside vocab 1000 (ids 0..999)");
  CHECK(nl::check_tokens(ids, nl::TokenFormat::u16, 1002).ok());
  // Byte data with a vocabulary below 256: the same check (ASCII text under vocab 128).
  s = nl::check_tokens("ab\xe9", nl::TokenFormat::bytes, 128);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message() == "token 2 (byte offset 2) is id 233, outside vocab 128 (ids 0..127)");
  CHECK(nl::check_tokens("ab\xe9", nl::TokenFormat::bytes, 256).ok());
  // The largest u32 id against the largest vocab.
  CHECK_FALSE(nl::check_tokens(std::string(4, '\xff'), nl::TokenFormat::u32, nl::kMaxVocab).ok());
}
