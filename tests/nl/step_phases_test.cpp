// nl::TimedPhase: one report per scope (end() or the destructor, not both); nothing when the
// observer is null. nl::phase_name: the names the trace shows.
#include "nl/step_phases.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace {

struct Count final : nl::StepObserver {
  std::vector<nl::StepPhase> phases;
  std::vector<nl::TierMove> moves;
  void phase(nl::StepPhase p, std::optional<std::size_t>, nl::StepClock::time_point b, nl::StepClock::time_point e) override {
    CHECK(b <= e);
    phases.push_back(p);
  }
  void tier_move(const nl::TierMove& m) override { moves.push_back(m); }
};

}  // namespace

TEST_CASE("step_phases: a timed phase reports once, at end() or when its scope ends; a null observer is never called") {
  Count c;
  {
    nl::TimedPhase a(&c, nl::StepPhase::read_data);
    a.end();
    a.end();
    const nl::TimedPhase b(&c, nl::StepPhase::metrics, 1);
    const nl::TimedPhase none(nullptr, nl::StepPhase::forward);
  }
  CHECK(c.phases == std::vector{nl::StepPhase::read_data, nl::StepPhase::metrics});
  CHECK(nl::phase_name(nl::StepPhase::reduce) == "gradient reduction");
  CHECK(nl::phase_name(nl::StepPhase::optimizer) == "clip+AdamW");
  CHECK(nl::phase_name(nl::StepPhase::checkpoint) == "checkpoint save");
}
