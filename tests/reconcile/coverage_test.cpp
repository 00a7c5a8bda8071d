// record_coverage gates rules on the feature blocks with the reference's JavaScript tests: its
// `typeof x === "object"` is true for arrays too, so an array where an object belongs still counts.
#include <doctest/doctest.h>

#include "reconcile/coverage.hpp"
#include "read_tree.hpp"

using Json = reconcile::Tree;
using reconcile::record_coverage;
using reconcile_test::Read;

namespace {

Json receipt_with_backward(const char* backward) {
  Json r = Json::parse(R"({"updates": [], "loss": {"value": 1}})");
  r["backward"] = Json::parse(backward);
  return r;
}

}  // namespace

TEST_CASE("coverage: rules 1-3 run on any backward the reference calls an object, arrays included") {
  CHECK(record_coverage(Read(receipt_with_backward("{}"))).has(1));
  const auto as_array = record_coverage(Read(receipt_with_backward("[]")));
  CHECK(as_array.has(1));
  CHECK(as_array.has(2));
  CHECK(as_array.has(3));
  for (const char* absent : {"null", "3", "\"x\"", "true"}) {
    CAPTURE(absent);
    CHECK_FALSE(record_coverage(Read(receipt_with_backward(absent))).has(1));
  }
  Json none = Json::parse(R"({"updates": []})");
  CHECK_FALSE(record_coverage(Read(none)).has(1));
}

TEST_CASE("coverage: Rule 13 finds a dual_form in output_error_signals held as an array") {
  CHECK(record_coverage(Read(receipt_with_backward(R"({"output_error_signals": {"o1": {"dual_form": {}}}})"))).has(13));
  CHECK(record_coverage(Read(receipt_with_backward(R"({"output_error_signals": [{"dual_form": {}}]})"))).has(13));
  CHECK(record_coverage(Read(receipt_with_backward(R"({"output_error_signals": [3, {"dual_form": []}]})"))).has(13));
  CHECK_FALSE(record_coverage(Read(receipt_with_backward(R"({"output_error_signals": [{"dual_form": 0}]})"))).has(13));
  CHECK_FALSE(record_coverage(Read(receipt_with_backward(R"({"output_error_signals": "dual_form"})"))).has(13));
}
