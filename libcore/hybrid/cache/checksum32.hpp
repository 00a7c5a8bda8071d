#pragma once
// APX 13.8.0: the persistent cache's 32-bit payload checksum, FNV-1a (offset basis
// 0x811C9DC5, prime 0x01000193). Not cryptographic; detects bit flips and truncation.
#include <cstdint>
#include <span>

namespace hybrid {

[[nodiscard]] std::uint32_t checksum32(std::span<const std::uint8_t> data);

}  // namespace hybrid
