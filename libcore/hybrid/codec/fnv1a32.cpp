#include "hybrid/codec/fnv1a32.hpp"

namespace hybrid {

std::uint32_t fnv1a32(std::span<const std::uint8_t> data) { return fnv1a32_update(fnv1a32_init(), data); }

std::uint32_t fnv1a32_update(std::uint32_t hash, std::span<const std::uint8_t> data) {
  for (std::uint8_t b : data) {
    hash ^= b;
    hash *= 0x01000193U;
  }
  return hash;
}

}  // namespace hybrid
