#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

const char* to_string(ExecutionTarget target) {
  switch (target) {
    case ExecutionTarget::Cpu: return "Cpu";
    case ExecutionTarget::Gpu: return "Gpu";
    case ExecutionTarget::CpuFallback: return "CpuFallback";
  }
  return "Unknown";
}

}  // namespace hybrid
