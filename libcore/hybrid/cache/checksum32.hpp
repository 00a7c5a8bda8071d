#pragma once
// APX 13.8.0: the persistent cache's 32-bit payload checksum, FNV-1a (offset basis
// 0x811C9DC5, prime 0x01000193). Not cryptographic; detects bit flips and truncation.
#include <cstdint>
#include <span>

namespace hybrid {

[[nodiscard]] std::uint32_t checksum32(std::span<const std::uint8_t> data);

// The same checksum over data that arrives in pieces: update(init(), a) then (..., b) equals
// checksum32(a + b).
[[nodiscard]] constexpr std::uint32_t checksum32_init() { return 0x811C9DC5U; }
[[nodiscard]] std::uint32_t checksum32_update(std::uint32_t hash, std::span<const std::uint8_t> data);

}  // namespace hybrid
