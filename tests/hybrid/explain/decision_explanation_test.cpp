#include "hybrid/explain/decision_explanation.hpp"
#include "hybrid/explain/representative_entry.hpp"
#include "hybrid/learning/context_bucket.hpp"

#include <doctest/doctest.h>

#include "record_episode.hpp"

using namespace hybrid;
using explain_test::record;

namespace {

const ExecutionContext kCtx{true, 0.1F, 0.6F};

}  // namespace

TEST_CASE("decision_explanation: explanation_none_when_context_unknown") {
  SelfTrainer t;
  CHECK_FALSE(explain_decision(t, {true, 0, 0}).has_value());
  record(t, kCtx, BackendChoice::gpu, true, 5);
  CHECK_FALSE(explain_decision(t, {true, 0, 0}).has_value());
  CHECK_FALSE(explain_decision(t, {false, 0, 1}).has_value());
}

TEST_CASE("decision_explanation: explanation_for_gpu_context") {
  SelfTrainer t;
  record(t, kCtx, BackendChoice::gpu, true, 8);
  const auto ctx = learning_snapshot(t).entries.at(0).context;
  auto e = explain_decision(t, ctx);
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::gpu);
  // One success out of one is weak evidence: the Wilson lower bound, 1 / (1 + 1.96^2).
  CHECK(e->confidence == doctest::Approx(1.0 / (1.0 + 1.96 * 1.96)).epsilon(1e-4));
  CHECK(e->explanation ==
        "GPU was selected because its learned value (average score less drift penalty) in this context is higher "
        "than the CPU's: GPU 8 (average score 8 over 1 episode), CPU 0 (not observed in this context). GPU was "
        "observed only 1 time in this context (1 successful), too few for a firm confidence in it; the choice is "
        "tentative.");
}

TEST_CASE("decision_explanation: explanation_for_cpu_context_due_to_drift") {
  SelfTrainer t;
  record(t, kCtx, BackendChoice::gpu, false, 1, true);
  record(t, kCtx, BackendChoice::cpu, true, 4);
  const auto ctx = learning_snapshot(t).entries.at(0).context;
  auto e = explain_decision(t, ctx);
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::cpu);
  CHECK(e->explanation.find("CPU") != std::string::npos);
  // The drift decides through its penalty, and the text gives the numbers the trainer compared.
  CHECK(e->explanation ==
        "CPU was selected because the GPU's learned value (average score less drift penalty) in this context is not "
        "higher than the CPU's: GPU -4 (average score 1 over 1 episode, less 5 for drift in 1), CPU 4 (average "
        "score 4 over 1 episode). CPU was observed only 1 time in this context (1 successful), too few for a firm "
        "confidence in it; the choice is tentative.");
}

TEST_CASE("decision_explanation: explanation_is_deterministic") {
  SelfTrainer t;
  record(t, kCtx, BackendChoice::cpu, true, 3);
  const LearningContextSnapshot ctx{true, 0, 1};
  auto a = explain_decision(t, ctx), b = explain_decision(t, ctx);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(a->recommended_backend == b->recommended_backend);
  CHECK(a->confidence == b->confidence);
  CHECK(a->explanation == b->explanation);
  CHECK(a->explanation.find("is not higher than the CPU's: GPU 0 (not observed in this context), CPU 3") !=
        std::string::npos);
}

TEST_CASE("decision_explanation: band 3 contexts are explained with their own statistics") {
  SelfTrainer t;
  const ExecutionContext hot{true, 0.95F, 0.95F};
  record(t, hot, BackendChoice::gpu, true, 9);
  record(t, {true, 0.6F, 0.6F}, BackendChoice::cpu, true, 50);  // band 1: must not leak into band 3
  auto e = explain_decision(t, {true, 3, 3});
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::gpu);
  CHECK(e->recommended_backend == t.recommend_for_bucket(bucket_for(hot)));
}

TEST_CASE("decision_explanation: the recommended backend's row is the evidence, not the busiest") {
  SelfTrainer t;
  for (int i = 0; i < 3; ++i) record(t, kCtx, BackendChoice::cpu, i < 2, 2);
  record(t, kCtx, BackendChoice::gpu, true, 9);
  auto e = explain_decision(t, {true, 0, 1});
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::gpu);
  // Main explained a GPU choice with the CPU row's "3 times, 2 successful".
  CHECK(e->explanation.find("GPU 9 (average score 9 over 1 episode), CPU 2 (average score 2 over 3 episodes)") !=
        std::string::npos);
  CHECK(e->explanation.find("GPU was observed only 1 time in this context (1 successful)") != std::string::npos);
  CHECK(e->confidence == doctest::Approx(observation_confidence(1, 1)));
}

TEST_CASE("decision_explanation: the learned value decides, and the confidence is the chosen backend's") {
  SelfTrainer t;
  for (int i = 0; i < 20; ++i) record(t, kCtx, BackendChoice::gpu, true, 0);
  auto e = explain_decision(t, {true, 0, 1});
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::cpu);
  // Main gave the GPU row's 84% to the CPU, "because historical data does not strongly favor GPU".
  CHECK(e->confidence == 0.0F);
  CHECK(e->explanation ==
        "CPU was selected because the GPU's learned value (average score less drift penalty) in this context is not "
        "higher than the CPU's: GPU 0 (average score 0 over 20 episodes), CPU 0 (not observed in this context); a "
        "tie goes to the CPU. CPU itself has not been observed in this context, so the confidence in it is 0%.");
  // Without a GPU nothing is compared.
  record(t, {false, 0.1F, 0.6F}, BackendChoice::gpu, true, 7);
  auto none = explain_decision(t, {false, 0, 1});
  REQUIRE(none.has_value());
  CHECK(none->recommended_backend == BackendChoice::cpu);
  CHECK(none->explanation ==
        "CPU was selected because no GPU is available in this context. CPU itself has not been observed in this "
        "context, so the confidence in it is 0%.");
}

TEST_CASE("decision_explanation: many observations with a weak success rate are called weak, not few") {
  SelfTrainer t;
  for (int i = 0; i < 40; ++i) record(t, kCtx, BackendChoice::cpu, i < 14, 5);
  auto e = explain_decision(t, {true, 0, 1});
  REQUIRE(e.has_value());
  CHECK(e->recommended_backend == BackendChoice::cpu);
  CHECK(e->confidence == doctest::Approx(observation_confidence(14, 40)));
  CHECK(e->explanation.ends_with("CPU 5 (average score 5 over 40 episodes). Only 14 of 40 CPU observations in this "
                                 "context succeeded, too weak a record for a firm confidence in it; the choice is "
                                 "tentative."));
}

TEST_CASE("decision_explanation: confidence grows with the number of observations") {
  CHECK(observation_confidence(0, 0) == 0.0F);
  CHECK(observation_confidence(4, 4) == doctest::Approx(4.0 / (4.0 + 1.96 * 1.96)).epsilon(1e-4));
  CHECK(observation_confidence(4, 4) < observation_confidence(20, 20));
  CHECK(observation_confidence(20, 20) < observation_confidence(100, 100));
  CHECK(observation_confidence(100, 100) < 1.0F);
  CHECK(observation_confidence(50, 100) < 0.5F);
}
