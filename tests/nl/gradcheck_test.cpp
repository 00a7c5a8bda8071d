// gradcheck's negative control: with one hand-written gradient entry moved (GradcheckOptions::
// perturb), the same check that passes on the true gradient must fail, on that tensor only; and
// the learned schedule's gate (E, W_freq, b_freq checked with the mask held fixed).
#include "nl/gradcheck.hpp"

#include <algorithm>
#include <string>

#include "rule_check.hpp"

namespace {

const nl::TensorCheck& tensor(const nl::GradcheckReport& r, const std::string& name) {
  const auto it = std::find_if(r.tensors.begin(), r.tensors.end(), [&](const nl::TensorCheck& t) { return t.name == name; });
  REQUIRE(it != r.tensors.end());
  return *it;
}

// Runs opt unperturbed (must pass: the control is only meaningful against a passing check),
// then with `name[index] += frac * max |grad of name|`; returns the perturbed report.
nl::GradcheckReport control(nl::GradcheckOptions opt, const std::string& name, std::size_t index, double frac) {
  auto base = nl::gradcheck(nltest::registry(), opt);
  REQUIRE(base.ok());
  REQUIRE(base->passed());
  const double scale = tensor(*base, name).max_abs_grad;
  REQUIRE(scale > 1e-4);  // a gradient far from zero, so the perturbation is not lost in the floors
  opt.perturb = nl::GradientPerturbation{name, index, frac * scale};
  auto r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE(r.ok());
  CHECK(r->loss == base->loss);
  return *r;
}

void expect_only_failure(const nl::GradcheckReport& r, const std::string& name) {
  CHECK_FALSE(r.passed());
  for (const nl::TensorCheck& t : r.tensors) {
    INFO(t.name);
    CHECK(t.passed() == (t.name != name));
  }
}

}  // namespace

TEST_CASE("gradcheck: a perturbed fp32 gradient entry fails tape~hand and FD on that tensor") {
  nl::GradcheckOptions opt;
  opt.rule = nl::RuleKind::delta;
  const nl::GradcheckReport r = control(opt, "W_O", 0, 0.5);  // entry 0: always among the FD samples
  expect_only_failure(r, "W_O");
  const nl::TensorCheck& t = tensor(r, "W_O");
  CHECK(t.tape_failed == 1);
  CHECK(t.fd_failed == 1);
  CHECK(t.first_failure.rfind("tape W_O[0] ", 0) == 0);
}

TEST_CASE("gradcheck: a perturbed fp64 gradient entry of a frozen level's error buffer fails FD") {
  nl::GradcheckOptions opt;
  opt.rule = nl::RuleKind::titans;
  opt.levels = 2;
  opt.stress = true;  // level 1 frozen: its W_Q gradient is the error-buffer contribution
  opt.fp64 = true;
  // 1% of the tensor's largest entry: 100x fp64 FD's relative tolerance, yet small enough that
  // only a per-entry comparison sees it (entry 5 is not among fp32's FD samples of 64 entries).
  const nl::GradcheckReport r = control(opt, "levels/1/W_Q", 5, 1e-2);
  expect_only_failure(r, "levels/1/W_Q");
  const nl::TensorCheck& t = tensor(r, "levels/1/W_Q");
  CHECK(t.frozen);
  CHECK(t.fd_failed == 1);
  CHECK(t.fd_checked == t.size);
}

TEST_CASE("gradcheck: a perturbation naming nothing, out of range or zero is an error") {
  nl::GradcheckOptions opt;
  opt.perturb = nl::GradientPerturbation{"W_X", 0, 1.0};
  auto r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().message().find("'W_X'") != std::string::npos);
  opt.perturb = nl::GradientPerturbation{"W_O", 64, 1.0};  // W_O is 8 x 8
  r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("beyond W_O (64 entries)") != std::string::npos);
  opt.perturb = nl::GradientPerturbation{"W_O", 0, 0.0};
  r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("non-zero") != std::string::npos);
}

TEST_CASE("gradcheck, learned schedule: the gate picks the stress levels, E/W_freq/b_freq pass, and a moved entry of each fails") {
  nl::GradcheckOptions opt;
  opt.rule = nl::RuleKind::hebbian;
  opt.levels = 3;
  opt.stress = true;
  opt.fp64 = true;
  opt.schedule = nl::FrequencySchedule::learned;
  auto base = nl::gradcheck(nltest::registry(), opt);
  REQUIRE(base.ok());
  CHECK(base->passed());
  CHECK(base->cfg.schedule == nl::FrequencySchedule::learned);
  CHECK(base->active == std::vector<bool>{true, false, true});  // the gate's choice (b_freq -4, +4)
  CHECK(tensor(*base, "b_freq").fd_checked == 2);
  CHECK(tensor(*base, "W_freq").fd_checked == 16);
  for (const char* name : {"E", "W_freq", "b_freq"}) {
    INFO(name);
    const nl::GradcheckReport r = control(opt, name, 1, 0.05);
    expect_only_failure(r, name);
    CHECK(tensor(r, name).fd_failed == 1);
  }
}

TEST_CASE("gradcheck, learned schedule: K = 1 is an error naming the schedule") {
  nl::GradcheckOptions opt;
  opt.levels = 1;
  opt.schedule = nl::FrequencySchedule::learned;
  auto r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().message().find("schedule") != std::string::npos);
}

TEST_CASE("gradcheck: fp32 FD reports what it compared and what it skipped below the floor, never a worst of 0 for nothing") {
  std::size_t skipped_total = 0, all_skipped_tensors = 0;
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    nl::GradcheckOptions opt;
    opt.rule = rule;
    opt.levels = 2;
    auto r = nl::gradcheck(nltest::registry(), opt);
    REQUIRE(r.ok());
    for (const nl::TensorCheck& t : r->tensors) {
      INFO(t.name);
      CHECK(t.fd_compared + t.fd_skipped == t.fd_checked);
      CHECK(t.fd_worst_abs.has_value() == (t.fd_compared > 0));
      if (t.fd_compared == 0) CHECK_FALSE(t.fd_worst_rel.has_value());
      skipped_total += t.fd_skipped;
      all_skipped_tensors += t.fd_compared == 0 && t.fd_checked > 0 ? 1 : 0;
    }
  }
  // The protocol's floor does skip entries (so the counts above were exercised).
  CHECK(skipped_total > 0);
  MESSAGE("fp32 FD: " << skipped_total << " entries skipped below 5e-4; " << all_skipped_tensors
                      << " tensors with nothing compared");
  // fp64 compares every entry.
  nl::GradcheckOptions opt;
  opt.fp64 = true;
  auto r = nl::gradcheck(nltest::registry(), opt);
  REQUIRE(r.ok());
  for (const nl::TensorCheck& t : r->tensors) {
    CHECK(t.fd_skipped == 0);
    CHECK(t.fd_compared == t.size);
  }
}
