#include "hybrid/planner/decision_rule.hpp"

namespace hybrid {

const char* to_string(DecisionRule rule) {
  switch (rule) {
    case DecisionRule::gpu_not_available: return "GpuNotAvailable";
    case DecisionRule::kernel_not_gpu_friendly: return "KernelNotGpuFriendly";
    case DecisionRule::tensor_on_ssd: return "TensorOnSsd";
    case DecisionRule::high_vram_pressure: return "HighVramPressure";
    case DecisionRule::gpu_preferred: return "GpuPreferred";
  }
  return "Unknown";
}

}  // namespace hybrid
