#pragma once
// APX 13.10.0 (plan summary) and 13.10.1: connecting warm-start plans, drift reports and
// execution results to the self-trainer.
#include <cstdint>
#include <span>

#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/warm_start.hpp"
#include "hybrid/learning/self_trainer.hpp"

namespace hybrid {

// Counts the plan's actions; the backend is Gpu when any reason mentions "GPU" (any case).
[[nodiscard]] DecisionSummary summarize_warm_start_plan(const WarmStartPlan& plan);

// Pressures clamped into [0, 1]; NaN becomes 0.
[[nodiscard]] ExecutionContext context_from_pressures(bool gpu_available, float vram_pressure, float ram_pressure);

[[nodiscard]] inline bool had_drift(std::span<const DriftReport> drifts) { return !drifts.empty(); }

struct ExecResult {
  bool ok = true;
  std::int32_t score = 0;
  static ExecResult Ok(std::int32_t score) { return {true, score}; }
  static ExecResult Err(std::int32_t score) { return {false, score}; }
};

[[nodiscard]] EpisodeOutcome outcome_from_exec_result(ExecResult res, bool drift);

void record_from_warm_start(SelfTrainer& trainer, const ExecutionContext& ctx, const WarmStartPlan& plan,
                            std::span<const DriftReport> drifts, ExecResult res);

[[nodiscard]] inline BackendChoice recommend_for_next_tick(const SelfTrainer& trainer, const ExecutionContext& ctx) {
  return trainer.recommend_backend(ctx);
}

}  // namespace hybrid
