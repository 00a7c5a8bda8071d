#include "hybrid/planner/execution_planner.hpp"

#include <algorithm>
#include <utility>

namespace hybrid {

namespace {

struct Verdict {
  ExecutionTarget target;
  const char* reason;
};

// The rule's verdict, or nothing when the rule does not fire.
std::optional<Verdict> evaluate(DecisionRule rule, const KernelProfile& kernel, std::span<const MemoryTier> tiers,
                                const MemorySnapshot& snapshot, bool gpu_available) {
  switch (rule) {
    case DecisionRule::gpu_not_available:
      if (!gpu_available) return Verdict{ExecutionTarget::cpu_fallback, "GPU not available"};
      return std::nullopt;
    case DecisionRule::kernel_not_gpu_friendly:
      if (!kernel.is_gpu_friendly()) return Verdict{ExecutionTarget::cpu, "Kernel not suitable for GPU execution"};
      return std::nullopt;
    case DecisionRule::tensor_on_ssd:
      if (std::ranges::find(tiers, MemoryTier::ssd) != tiers.end()) {
        return Verdict{ExecutionTarget::cpu, "Tensor resides on SSD"};
      }
      return std::nullopt;
    case DecisionRule::high_vram_pressure:
      if (snapshot.vram.pressure.value_or(0.0F) > kPlannerVramPressureLimit) {
        return Verdict{ExecutionTarget::cpu_fallback, "VRAM pressure too high"};
      }
      return std::nullopt;
    case DecisionRule::gpu_preferred: return Verdict{ExecutionTarget::gpu, "GPU execution preferred"};
  }
  return std::nullopt;
}

constexpr DecisionRule kRuleOrder[] = {DecisionRule::gpu_not_available, DecisionRule::kernel_not_gpu_friendly,
                                       DecisionRule::tensor_on_ssd, DecisionRule::high_vram_pressure,
                                       DecisionRule::gpu_preferred};

}  // namespace

ExecutionPlan plan_execution(const KernelProfile& kernel, std::span<const MemoryTier> tensor_tiers,
                             const MemorySnapshot& snapshot, bool gpu_available) {
  ExecutionDecisionTrace trace;
  trace.kernel_name = kernel.name;
  for (DecisionRule rule : kRuleOrder) {
    trace.evaluated_rules.push_back(rule);
    if (auto verdict = evaluate(rule, kernel, tensor_tiers, snapshot, gpu_available)) {
      trace.winning_rule = rule;
      trace.target = verdict->target;
      trace.reason = verdict->reason;
      ExecutionPlan plan{verdict->target, verdict->reason, std::nullopt};
      plan.trace = std::move(trace);
      return plan;
    }
  }
  // Unreachable: GpuPreferred always fires.
  return ExecutionPlan{ExecutionTarget::gpu, "GPU execution preferred", std::nullopt};
}

}  // namespace hybrid
