#include "hybrid/cache/checksum32.hpp"

namespace hybrid {

std::uint32_t checksum32(std::span<const std::uint8_t> data) { return checksum32_update(checksum32_init(), data); }

std::uint32_t checksum32_update(std::uint32_t hash, std::span<const std::uint8_t> data) {
  for (std::uint8_t b : data) {
    hash ^= b;
    hash *= 0x01000193U;
  }
  return hash;
}

}  // namespace hybrid
