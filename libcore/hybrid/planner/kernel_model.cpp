#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

const char* to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::ComputeHeavy: return "ComputeHeavy";
    case KernelKind::MemoryBound: return "MemoryBound";
    case KernelKind::Small: return "Small";
    case KernelKind::Serial: return "Serial";
  }
  return "Unknown";
}

bool KernelProfile::is_gpu_friendly() const {
  switch (kind) {
    case KernelKind::ComputeHeavy:
    case KernelKind::MemoryBound: return true;
    case KernelKind::Small:
    case KernelKind::Serial: return false;
  }
  return false;
}

}  // namespace hybrid
