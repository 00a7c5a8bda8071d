#pragma once
// APX 13.3.0-13.3.1: decide where a kernel runs from its profile, its tensors' tiers and memory
// pressure. Pure: no execution, no side effects.
#include <optional>
#include <span>
#include <string>

#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/planner/execution_target.hpp"
#include "hybrid/planner/execution_trace.hpp"
#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

// Rule 4 fires strictly above this VRAM pressure.
inline constexpr float kPlannerVramPressureLimit = 0.90F;

struct ExecutionPlan {
  ExecutionTarget target = ExecutionTarget::cpu;
  std::string reason;
  std::optional<ExecutionDecisionTrace> trace;  // always filled by plan_execution
};

// Rules, first match wins:
//   1 !gpu_available                       -> CpuFallback "GPU not available"
//   2 !kernel.is_gpu_friendly()            -> Cpu "Kernel not suitable for GPU execution"
//   3 any tier == Ssd                      -> Cpu "Tensor resides on SSD"
//   4 vram pressure (absent = 0) > 0.90    -> CpuFallback "VRAM pressure too high"
//   5 otherwise                            -> Gpu "GPU execution preferred"
[[nodiscard]] ExecutionPlan plan_execution(const KernelProfile& kernel, std::span<const MemoryTier> tensor_tiers,
                                           const MemorySnapshot& snapshot, bool gpu_available);

}  // namespace hybrid
