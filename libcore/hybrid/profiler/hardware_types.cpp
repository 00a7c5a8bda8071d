#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

const char* to_string(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
    case BackendKind::Rocm: return "rocm";
    case BackendKind::Metal: return "metal";
    case BackendKind::OneApi: return "oneapi";
    case BackendKind::Vulkan: return "vulkan";
    case BackendKind::Unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace hybrid
