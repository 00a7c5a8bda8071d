#include "hybrid/placement/placement_types.hpp"

#include <limits>

namespace hybrid {

const char* to_string(PlacementTarget target) {
  switch (target) {
    case PlacementTarget::Cpu: return "cpu";
    case PlacementTarget::Gpu: return "gpu";
    case PlacementTarget::Ram: return "ram";
    case PlacementTarget::Vram: return "vram";
    case PlacementTarget::Ssd: return "ssd";
  }
  return "unknown";
}

std::uint64_t TensorProfile::total_size_bytes() const {
  if (element_size_bytes != 0 && num_elements > std::numeric_limits<std::uint64_t>::max() / element_size_bytes) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return num_elements * element_size_bytes;
}

}  // namespace hybrid
