// nltrain's step receipts through the library gate (verify/nltrain.hpp): the fixture run verifies
// under all nine rules; a receipt repeated breaks the chain (Rule 2); a damaged line and an empty
// stream stop the run with the failure bp maps to exit 2.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/foreign_blas.hpp"
#include "verify/nltrain.hpp"
#include "verify_fixtures.hpp"

namespace {

std::vector<std::string> receipts() { return verify_test::fixture_lines("nltrain/receipts-d8.jsonl"); }

// The fixture was trained with one OpenBLAS core (AVX-512); another core's sgemm sums in another
// order, so on a machine with another BLAS the fixture is checked as a user's receipts from
// another machine are (bp verify nltrain --cross-machine: way (b)'s fp64 bound where bits differ).
verify::NltrainOptions options_for(const std::string& first_line) {
  verify::NltrainOptions o;
  o.cross_machine = suite_test::made_with_another_blas(first_line);
  return o;
}

}  // namespace

TEST_CASE("nltrain: the fixture run's receipts pass every rule") {
  const auto lines = receipts();
  REQUIRE(lines.size() >= 2);
  const verify_test::TextInput in(verify_test::joined(lines));
  auto v = verify::verify_nltrain(in.fd(), "receipts-d8.jsonl", options_for(lines[0]));
  REQUIRE(v.ok());
  CHECK(v->receipts() == lines.size());
  CHECK(v->failure_count() == 0);
  for (const auto& rule : nl_audit::kRules) {
    CAPTURE(rule.name);
    CHECK(v->tally()[rule.number].checked > 0);
  }
}

TEST_CASE("nltrain: a receipt repeated fails the chain rule") {
  const auto lines = receipts();
  const verify_test::TextInput in(verify_test::joined({lines[0], lines[0]}));
  auto v = verify::verify_nltrain(in.fd(), "repeated.jsonl", options_for(lines[0]));
  REQUIRE(v.ok());
  REQUIRE(v->failure_count() > 0);
  CHECK(v->tally()[2].failed > 0);
  CHECK(v->failures().front().rule == 2);
  CHECK(v->failures().front().line == 2);
}

TEST_CASE("nltrain: a receipt whose model config is refused is named by its line") {
  const auto lines = receipts();
  std::string bad = lines[1];
  const auto at = bad.find("\"d\":8,");
  REQUIRE(at != std::string::npos);
  bad.replace(at, 6, "\"d\":8.0,");
  const verify_test::TextInput in(verify_test::joined({lines[0], bad}));
  auto v = verify::verify_nltrain(in.fd(), "bad.jsonl", options_for(lines[0]));
  REQUIRE_FALSE(v.ok());
  CHECK(v.error().failure() == verify::StreamFailure::rejected);
  CHECK(v.error().line() == 2);
  CHECK(v.error().message() == "bad.jsonl:2: /model/config/d: expected a non-negative integer, got 8.0");
}

TEST_CASE("nltrain: a truncated receipt and an empty stream stop the run") {
  SUBCASE("truncated") {
    const verify_test::TextInput in(receipts()[0].substr(0, 200) + "\n");
    auto v = verify::verify_nltrain(in.fd(), "cut.jsonl", {});
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().failure() == verify::StreamFailure::rejected);
    CHECK(v.error().code() == common::ErrorCode::malformed);
    CHECK(v.error().line() == 1);
    CHECK(v.error().message().rfind("cut.jsonl:1", 0) == 0);
  }
  SUBCASE("empty") {
    const verify_test::TextInput in("");
    auto v = verify::verify_nltrain(in.fd(), "<stdin>", {});
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().failure() == verify::StreamFailure::no_records);
    CHECK(v.error().message() == "<stdin> contains no receipts");
  }
}
