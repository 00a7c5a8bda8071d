#include "hybrid/learning/self_trainer.hpp"

#include <doctest/doctest.h>

#include "hybrid/learning/context_bucket.hpp"
#include "plans_for_test.hpp"

using namespace hybrid;

namespace {

const ExecutionContext kLow{true, 0.1F, 0.2F};

TrainingEpisode episode(const DecisionSummary& plan, bool success, int score, bool drift,
                        ExecutionContext ctx = kLow) {
  return {ctx, plan, {success, score, drift}};
}

}  // namespace

TEST_CASE("self_trainer: cpu_when_gpu_unavailable") {
  SelfTrainer t;
  const ExecutionContext no_gpu{false, 0.1F, 0.1F};
  CHECK(t.recommend_for_bucket(bucket_for(no_gpu)) == BackendChoice::cpu);
  // Even a strong GPU history in that bucket does not matter without a GPU.
  for (int i = 0; i < 5; ++i) t.record_episode(episode(testplans::gpu_plan(), true, 100, false, no_gpu));
  CHECK(t.recommend_for_bucket(bucket_for(no_gpu)) == BackendChoice::cpu);
}

TEST_CASE("self_trainer: learns_gpu_when_successful_and_low_drift") {
  SelfTrainer t;
  for (int i = 0; i < 5; ++i) t.record_episode(episode(testplans::gpu_plan(), true, 10, false));
  for (int i = 0; i < 2; ++i) t.record_episode(episode(testplans::cpu_plan(), true, 3, false));
  CHECK(t.recommend_for_bucket(bucket_for(kLow)) == BackendChoice::gpu);
}

TEST_CASE("self_trainer: penalizes_gpu_when_drift_frequent") {
  SelfTrainer t;
  for (int i = 0; i < 4; ++i) t.record_episode(episode(testplans::gpu_plan(), true, 6, true));
  for (int i = 0; i < 4; ++i) t.record_episode(episode(testplans::cpu_plan(), true, 4, false));
  // GPU: 6 - 4*5/4 = 1; CPU: 4. Without the drift penalty GPU would win.
  CHECK(t.value_for(bucket_for(kLow), BackendChoice::gpu) == 1);
  CHECK(t.value_for(bucket_for(kLow), BackendChoice::cpu) == 4);
  CHECK(t.recommend_for_bucket(bucket_for(kLow)) == BackendChoice::cpu);
}

TEST_CASE("self_trainer: stats_update_is_correct") {
  SelfTrainer t;
  t.record_episode(episode(testplans::gpu_plan(), true, 7, true));
  auto s = t.stats_for_bucket(bucket_for(kLow), BackendChoice::gpu);
  REQUIRE(s.has_value());
  CHECK(s->count == 1);
  CHECK(s->success_count == 1);
  CHECK(s->score_sum == 7);
  CHECK(s->drift_count == 1);
  CHECK_FALSE(t.stats_for_bucket(bucket_for(kLow), BackendChoice::cpu).has_value());
}

TEST_CASE("self_trainer: bands split at 0.50, 0.75 and 0.90") {
  CHECK(band_for_pressure(0.0F) == 0);
  CHECK(band_for_pressure(0.49F) == 0);
  CHECK(band_for_pressure(0.50F) == 1);
  CHECK(band_for_pressure(0.74F) == 1);
  CHECK(band_for_pressure(0.75F) == 2);
  CHECK(band_for_pressure(0.89F) == 2);
  CHECK(band_for_pressure(0.90F) == 3);
  CHECK(band_for_pressure(1.0F) == 3);
}

TEST_CASE("self_trainer: a tie and an empty table both go to the CPU") {
  SelfTrainer t;
  CHECK(t.recommend_for_bucket(bucket_for(kLow)) == BackendChoice::cpu);
  t.record_episode(episode(testplans::gpu_plan(), true, 5, false));
  t.record_episode(episode(testplans::cpu_plan(), true, 5, false));
  CHECK(t.recommend_for_bucket(bucket_for(kLow)) == BackendChoice::cpu);
}

TEST_CASE("self_trainer: average score uses integer division") {
  SelfTrainer t;
  // GPU 3+2 over 2 episodes = 2 (not 2.5); CPU 2 -> tie -> CPU.
  t.record_episode(episode(testplans::gpu_plan(), true, 3, false));
  t.record_episode(episode(testplans::gpu_plan(), true, 2, false));
  t.record_episode(episode(testplans::cpu_plan(), true, 2, false));
  CHECK(t.value_for(bucket_for(kLow), BackendChoice::gpu) == 2);
  CHECK(t.recommend_for_bucket(bucket_for(kLow)) == BackendChoice::cpu);
}
