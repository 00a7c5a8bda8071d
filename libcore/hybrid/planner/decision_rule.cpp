#include "hybrid/planner/decision_rule.hpp"

namespace hybrid {

const char* to_string(DecisionRule rule) {
  switch (rule) {
    case DecisionRule::GpuNotAvailable: return "GpuNotAvailable";
    case DecisionRule::KernelNotGpuFriendly: return "KernelNotGpuFriendly";
    case DecisionRule::TensorOnSsd: return "TensorOnSsd";
    case DecisionRule::HighVramPressure: return "HighVramPressure";
    case DecisionRule::GpuPreferred: return "GpuPreferred";
  }
  return "Unknown";
}

}  // namespace hybrid
