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
        "GPU was selected because GPU execution in this context has been observed 1 times, with 1 successful "
        "executions and no drift. That is too few observations for a firm conclusion; the choice is tentative.");
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
  CHECK(e->explanation ==
        "CPU was selected because GPU execution in this context drifted in 1 of 1 episodes. Only 1 of 1 CPU "
        "observations in this context succeeded, so CPU is chosen as the default, not for a proven record.");
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
  CHECK(a->explanation.find("does not strongly favor GPU") != std::string::npos);
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
  CHECK(e->explanation.find("GPU execution in this context has been observed 1 times, with 1 successful") !=
        std::string::npos);
  CHECK(e->confidence == doctest::Approx(observation_confidence(1, 1)));
}

TEST_CASE("decision_explanation: confidence grows with the number of observations") {
  CHECK(observation_confidence(0, 0) == 0.0F);
  CHECK(observation_confidence(4, 4) == doctest::Approx(4.0 / (4.0 + 1.96 * 1.96)).epsilon(1e-4));
  CHECK(observation_confidence(4, 4) < observation_confidence(20, 20));
  CHECK(observation_confidence(20, 20) < observation_confidence(100, 100));
  CHECK(observation_confidence(100, 100) < 1.0F);
  CHECK(observation_confidence(50, 100) < 0.5F);
}
