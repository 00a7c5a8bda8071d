#include "hybrid/placement/placement_types.hpp"

#include <limits>

namespace hybrid {

const char* to_string(PlacementTarget target) {
  switch (target) {
    case PlacementTarget::cpu: return "cpu";
    case PlacementTarget::gpu: return "gpu";
    case PlacementTarget::ram: return "ram";
    case PlacementTarget::vram: return "vram";
    case PlacementTarget::ssd: return "ssd";
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
