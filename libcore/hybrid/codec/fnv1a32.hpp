#pragma once
// 32-bit FNV-1a (offset basis 0x811C9DC5, prime 0x01000193): the checksum of format v1 files
// (APX 13.8.0 cache .meta, checkpoint manifest, trainer table; see format/format_sum.hpp). Not
// cryptographic; catches a torn write, few corruptions.
#include <cstdint>
#include <span>

namespace hybrid {

[[nodiscard]] std::uint32_t fnv1a32(std::span<const std::uint8_t> data);

// The same checksum over data that arrives in pieces: update(init(), a) then (..., b) equals
// fnv1a32(a + b).
[[nodiscard]] constexpr std::uint32_t fnv1a32_init() { return 0x811C9DC5U; }
[[nodiscard]] std::uint32_t fnv1a32_update(std::uint32_t hash, std::span<const std::uint8_t> data);

}  // namespace hybrid
