#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

const char* to_string(ExecutionTarget target) {
  switch (target) {
    case ExecutionTarget::cpu: return "Cpu";
    case ExecutionTarget::gpu: return "Gpu";
    case ExecutionTarget::cpu_fallback: return "CpuFallback";
  }
  return "Unknown";
}

}  // namespace hybrid
