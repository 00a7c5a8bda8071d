#pragma once
// The 32-bit checksum a persistent format version uses: format v1 files (manifest, trainer
// table, cache .meta) carry FNV-1a, which catches a torn write but few corruptions; v2 files
// carry CRC-32C. Writers write v2; readers take both, told apart by the file's header or key.
#include <cstdint>
#include <span>
#include <string_view>

namespace hybrid {

enum class FormatSum {
  fnv1a,   // format v1
  crc32c,  // format v2
};

// The key that holds the checksum: "checksum32" (v1) or "crc32c" (v2).
[[nodiscard]] std::string_view format_sum_name(FormatSum sum);

[[nodiscard]] std::uint32_t format_checksum(FormatSum sum, std::span<const std::uint8_t> data);
[[nodiscard]] std::uint32_t format_checksum(FormatSum sum, std::string_view text);

// Over data that arrives in pieces: update(init, a) then (.., b) equals format_checksum(a + b).
[[nodiscard]] std::uint32_t format_checksum_init(FormatSum sum);
[[nodiscard]] std::uint32_t format_checksum_update(FormatSum sum, std::uint32_t state, std::span<const std::uint8_t> data);

}  // namespace hybrid
