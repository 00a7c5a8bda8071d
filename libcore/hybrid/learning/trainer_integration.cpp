#include "hybrid/learning/trainer_integration.hpp"

#include <cmath>

namespace hybrid {

namespace {

float clamp_pressure(float p) {
  if (std::isnan(p) || p < 0.0F) return 0.0F;
  return p > 1.0F ? 1.0F : p;
}

}  // namespace

DecisionSummary summarize_warm_start_plan(const WarmStartPlan& plan) {
  DecisionSummary s;
  for (const WarmStartDecision& d : plan.decisions) {
    if (std::holds_alternative<WarmKeep>(d.action)) ++s.keep_count;
    if (std::holds_alternative<WarmHintPromote>(d.action)) ++s.promote_count;
    if (std::holds_alternative<WarmDegradeSafe>(d.action)) ++s.degrade_count;
    if (mentions_gpu(d.reason)) s.backend = BackendChoice::gpu;
  }
  return s;
}

ExecutionContext context_from_pressures(bool gpu_available, float vram_pressure, float ram_pressure) {
  return {gpu_available, clamp_pressure(vram_pressure), clamp_pressure(ram_pressure)};
}

EpisodeOutcome outcome_from_exec_result(ExecResult res, bool drift) { return {res.ok, res.score, drift}; }

void record_from_warm_start(SelfTrainer& trainer, const ExecutionContext& ctx, const WarmStartPlan& plan,
                            std::span<const DriftReport> drifts, ExecResult res) {
  trainer.record_episode({ctx, summarize_warm_start_plan(plan), outcome_from_exec_result(res, had_drift(drifts))});
}

}  // namespace hybrid
