// The reconciler's shared pieces: tolerance arithmetic and clamping, path resolution, coverage,
// and the never-throws contract of the entry points.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "common/json_input.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/tolerance.hpp"
#include "read_tree.hpp"

using Json = reconcile::Tree;
using reconcile_test::Read;

TEST_CASE("tolerance: symmetric max form, non-finite operands fail with NaN delta") {
  const reconcile::Tolerance t{1e-9, 1e-6};
  auto c = reconcile::check_tolerance(1.0, 1.0 + 5e-7, t);
  CHECK(c.ok);
  CHECK(c.applied == doctest::Approx(1e-6 * (1.0 + 5e-7)));
  c = reconcile::check_tolerance(1e-4, 1e-4 + 2e-9, t);  // rtol * 1e-4 < atol: atol applies
  CHECK_FALSE(c.ok);
  CHECK(c.applied == 1e-9);
  c = reconcile::check_tolerance(std::numeric_limits<double>::quiet_NaN(), 1.0, t);
  CHECK_FALSE(c.ok);
  CHECK_FALSE(c.finite);
  CHECK(std::isnan(c.delta));
  CHECK(c.applied == 0);
  c = reconcile::check_tolerance(1e308, -1e308, t);  // the delta overflows
  CHECK_FALSE(c.ok);
  CHECK_FALSE(c.finite);
}

TEST_CASE("tolerance: policies are a non-negative scalar or {atol, rtol}; clamping never loosens") {
  CHECK(reconcile::read_tolerance_policy(Read(Json(1e-9)))->atol == 1e-9);
  CHECK(reconcile::read_tolerance_policy(Read(Json(1e-9)))->rtol == 0);
  CHECK_FALSE(reconcile::read_tolerance_policy(Read(Json(-1.0))));
  CHECK_FALSE(reconcile::read_tolerance_policy(Read(Json(true))));
  CHECK_FALSE(reconcile::read_tolerance_policy(Read(Json::parse(R"({"atol":1e-9})"))));
  CHECK_FALSE(reconcile::read_tolerance_policy(Read(Json::parse(R"({"atol":1e-9,"rtol":"0"})"))));
  const auto c = reconcile::clamp_tolerance({1e-3, 1e-7}, reconcile::kNumericCeiling);
  CHECK(c.exceeded);
  CHECK(c.effective.atol == reconcile::kNumericCeiling.atol);
  CHECK(c.effective.rtol == 1e-7);
  CHECK(reconcile::numeric_ceiling_for(Read(Json::parse(R"({"fixture_status":{"authoring_state":"external_imported"}})")))
            .atol == reconcile::kObserverNumericCeiling.atol);
}

TEST_CASE("resolve_path: dotted names and bracketed indices, typed reasons") {
  const Read doc(Json::parse(R"({"a":{"b":[1,{"c":2.5}]},"s":"x","k":{"k":1,"k":7}})"));
  CHECK(*reconcile::resolve_path(doc, "a.b[1].c").value == 2.5);
  CHECK(*reconcile::resolve_path(doc, "a.b[0]").value == 1);
  CHECK(reconcile::resolve_path(doc, "a.b[2].c").reason.find("out of bounds (length 2)") != std::string::npos);
  CHECK(reconcile::resolve_path(doc, "a..b").reason.find("empty segment") != std::string::npos);
  CHECK(reconcile::resolve_path(doc, "a.b[x]").reason.find("malformed") != std::string::npos);
  CHECK(reconcile::resolve_path(doc, "s").reason.find("resolved to string") != std::string::npos);
  CHECK(reconcile::resolve_path(doc, "a.zz").reason.find("is missing") != std::string::npos);
  CHECK(reconcile::resolve_path(doc, "").reason == "path is empty or not a string");
}

TEST_CASE("reconcile_receipt: structural refusals before any rule, never an exception") {
  auto r = reconcile::reconcile_receipt(Json(42));
  REQUIRE_FALSE(r.ok);
  CHECK(r.failures.front().rule == 0);
  CHECK(r.failures.front().field_path == "root");
  r = reconcile::reconcile_receipt(Json::parse(R"({"updates":[]})"));
  CHECK(r.failures.front().field_path == "numeric_policy.tolerance");
  r = reconcile::reconcile_receipt(Json::parse(R"({"numeric_policy":{"tolerance":1e-9}})"));
  CHECK(r.failures.front().field_path == "updates");
  r = reconcile::reconcile_receipt(Json::parse(R"({"numeric_policy":{"tolerance":{"atol":1e-3,"rtol":0}},"updates":[]})"));
  REQUIRE_FALSE(r.ok);
  CHECK(r.failures.front().message->find("exceeds verifier maximum") != std::string::npos);
}
