#include "hybrid/cache/checksum32.hpp"

namespace hybrid {

std::uint32_t checksum32(std::span<const std::uint8_t> data) {
  std::uint32_t hash = 0x811C9DC5U;
  for (std::uint8_t b : data) {
    hash ^= b;
    hash *= 0x01000193U;
  }
  return hash;
}

}  // namespace hybrid
