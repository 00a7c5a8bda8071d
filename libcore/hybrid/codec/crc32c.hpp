#pragma once
// CRC-32C (Castagnoli) for SSD blob integrity: hardware instruction where available
// (SSE4.2), table otherwise, so verifying a spilled tensor costs little next to the I/O.
#include <cstdint>
#include <span>

namespace hybrid {

[[nodiscard]] std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t seed = 0);

}  // namespace hybrid
