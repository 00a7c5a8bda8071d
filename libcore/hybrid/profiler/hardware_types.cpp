#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

const char* to_string(BackendKind kind) {
  switch (kind) {
    case BackendKind::cpu: return "cpu";
    case BackendKind::cuda: return "cuda";
    case BackendKind::rocm: return "rocm";
    case BackendKind::metal: return "metal";
    case BackendKind::one_api: return "oneapi";
    case BackendKind::vulkan: return "vulkan";
    case BackendKind::unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace hybrid
