#include "hybrid/learning/trainer_integration.hpp"

#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "plans_for_test.hpp"

using namespace hybrid;

TEST_CASE("trainer_integration: records_episode_from_warm_start_no_drift") {
  SelfTrainer t;
  const auto ctx = context_from_pressures(true, 0.1F, 0.2F);
  record_from_warm_start(t, ctx, testplans::gpu_plan(), {}, ExecResult::Ok(10));
  auto s = t.stats_for(ctx, BackendChoice::gpu);
  REQUIRE(s.has_value());
  CHECK(s->count == 1);
  CHECK(s->success_count == 1);
  CHECK(s->drift_count == 0);
}

TEST_CASE("trainer_integration: records_episode_with_drift_flag") {
  SelfTrainer t;
  const auto ctx = context_from_pressures(true, 0.1F, 0.2F);
  std::vector<DriftReport> drifts{{TensorId{"t"}, {TierDowngrade{MemoryTier::vram, MemoryTier::ram}}}};
  record_from_warm_start(t, ctx, testplans::gpu_plan(), drifts, ExecResult::Ok(10));
  auto s = t.stats_for(ctx, BackendChoice::gpu);
  REQUIRE(s.has_value());
  CHECK(s->drift_count == 1);
  CHECK(s->success_count == 1);
}

TEST_CASE("trainer_integration: recommend_changes_after_recording") {
  SelfTrainer t;
  const auto ctx = context_from_pressures(true, 0.1F, 0.2F);
  CHECK(recommend_for_next_tick(t, ctx) == BackendChoice::cpu);
  for (int i = 0; i < 3; ++i) record_from_warm_start(t, ctx, testplans::gpu_plan(), {}, ExecResult::Ok(10));
  for (int i = 0; i < 3; ++i) record_from_warm_start(t, ctx, testplans::cpu_plan(), {}, ExecResult::Ok(2));
  CHECK(recommend_for_next_tick(t, ctx) == BackendChoice::gpu);
}

TEST_CASE("trainer_integration: clamp_pressures_is_safe") {
  const auto ctx = context_from_pressures(true, 2.0F, -1.0F);
  CHECK(ctx.vram_pressure == 1.0F);
  CHECK(ctx.ram_pressure == 0.0F);
  const auto nan_ctx = context_from_pressures(false, std::nanf(""), 0.5F);
  CHECK(nan_ctx.vram_pressure == 0.0F);
  CHECK(nan_ctx.ram_pressure == 0.5F);
}

TEST_CASE("trainer_integration: summarize counts actions and spots GPU in reasons") {
  WarmStartPlan p = testplans::gpu_plan();
  p.decisions.push_back({"b", false, MemoryTier::ram, std::nullopt, WarmKeep{}, "No desired tier hint"});
  p.decisions.push_back({"c", false, MemoryTier::ram, MemoryTier::vram, WarmDegradeSafe{MemoryTier::ram}, "x"});
  auto s = summarize_warm_start_plan(p);
  CHECK(s.keep_count == 1);
  CHECK(s.promote_count == 1);
  CHECK(s.degrade_count == 1);
  CHECK(s.backend == BackendChoice::gpu);
  CHECK(summarize_warm_start_plan(testplans::cpu_plan()).backend == BackendChoice::cpu);
  WarmStartPlan lower = testplans::cpu_plan();
  lower.decisions[0].reason = "prefer the gpu";
  CHECK(summarize_warm_start_plan(lower).backend == BackendChoice::gpu);
}

TEST_CASE("trainer_integration: an Err result records a failure") {
  SelfTrainer t;
  const auto ctx = context_from_pressures(true, 0.1F, 0.2F);
  record_from_warm_start(t, ctx, testplans::cpu_plan(), {}, ExecResult::Err(-3));
  auto s = t.stats_for(ctx, BackendChoice::cpu);
  REQUIRE(s.has_value());
  CHECK(s->success_count == 0);
  CHECK(s->score_sum == -3);
}
