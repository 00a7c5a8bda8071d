#pragma once
// The explain tests' one way to teach a SelfTrainer an episode: a context, the backend chosen
// and how it went (the plan's other fields zero). Shared, not copied per test file, so the test
// files can be compiled together (unity build) without two definitions of it.
#include "hybrid/learning/self_trainer.hpp"

namespace explain_test {

inline void record(hybrid::SelfTrainer& t, hybrid::ExecutionContext ctx, hybrid::BackendChoice b, bool ok, int score,
                   bool drift = false) {
  t.record_episode({ctx, {b, 0, 0, 0}, {ok, score, drift}});
}

}  // namespace explain_test
