#include "hybrid/explain/decision_factors.hpp"

#include <doctest/doctest.h>

#include "record_episode.hpp"

using namespace hybrid;
using explain_test::record;

namespace {

const ExecutionContext kFactorsCtx{true, 0.1F, 0.1F};

}  // namespace

TEST_CASE("decision_factors: structured_none_when_context_unknown") {
  CHECK_FALSE(explain_decision_structured(SelfTrainer{}, {true, 2, 1}).has_value());
}

TEST_CASE("decision_factors: structured_contains_all_factors") {
  SelfTrainer t;
  record(t, kFactorsCtx, BackendChoice::gpu, true, 6);
  auto s = explain_decision_structured(t, learning_snapshot(t).entries.at(0).context);
  REQUIRE(s.has_value());
  REQUIRE(s->factors.size() == 4);
  CHECK(s->factors[0].kind == DecisionFactorKind::historical_success_rate);
  CHECK(s->factors[1].kind == DecisionFactorKind::drift_penalty);
  CHECK(s->factors[2].kind == DecisionFactorKind::observation_count);
  CHECK(s->factors[3].kind == DecisionFactorKind::memory_stability);
  CHECK(s->recommended_backend == BackendChoice::gpu);
  CHECK(s->factors[0].description == "Historical GPU success rate for this context is 1.00 (1 successes over 1 episodes).");
  CHECK(s->factors[2].weight == doctest::Approx(1.0 / 50.0));
}

TEST_CASE("decision_factors: weights_are_clamped_and_safe") {
  SelfTrainer t;
  for (int i = 0; i < 400; ++i) record(t, kFactorsCtx, BackendChoice::gpu, i % 3 == 0, -50, true);
  auto s = explain_decision_structured(t, {true, 0, 0});
  REQUIRE(s.has_value());
  for (const auto& f : s->factors) {
    CHECK(f.weight >= 0.0F);
    CHECK(f.weight <= 1.0F);
  }
  CHECK(s->factors[2].weight == 1.0F);
  CHECK(s->factors[3].weight == 0.0F);
  CHECK(s->confidence >= 0.0F);
  CHECK(s->confidence <= 1.0F);
}

TEST_CASE("decision_factors: gpu_structured_explanation_has_high_success_weight") {
  SelfTrainer t;
  for (int i = 0; i < 10; ++i) record(t, kFactorsCtx, BackendChoice::gpu, i != 0, 8);
  auto s = explain_decision_structured(t, {true, 0, 0});
  REQUIRE(s.has_value());
  CHECK(s->factors[0].weight > 0.6F);
  CHECK(s->factors[0].description == "Historical GPU success rate for this context is 0.90 (9 successes over 10 episodes).");
}

TEST_CASE("decision_factors: drift_penalty_present_for_unstable_context") {
  SelfTrainer t;
  for (int i = 0; i < 4; ++i) record(t, kFactorsCtx, BackendChoice::gpu, true, 5, i < 3);
  auto s = explain_decision_structured(t, {true, 0, 0});
  REQUIRE(s.has_value());
  CHECK(s->factors[1].weight == doctest::Approx(0.75));
  CHECK(s->factors[1].description.find("instability") != std::string::npos);
  CHECK(s->factors[3].weight == doctest::Approx(0.25));
  CHECK(s->factors[3].description.find("drift") != std::string::npos);
}
