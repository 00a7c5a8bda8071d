#include "hybrid/format/format_sum.hpp"

#include "hybrid/codec/fnv1a32.hpp"
#include "hybrid/codec/crc32c.hpp"

namespace hybrid {

std::string_view format_sum_name(FormatSum sum) { return sum == FormatSum::fnv1a ? "checksum32" : "crc32c"; }

std::uint32_t format_checksum_init(FormatSum sum) { return sum == FormatSum::fnv1a ? fnv1a32_init() : 0; }

std::uint32_t format_checksum_update(FormatSum sum, std::uint32_t state, std::span<const std::uint8_t> data) {
  // crc32c's seed is the CRC of the bytes before: it chains.
  return sum == FormatSum::fnv1a ? fnv1a32_update(state, data) : crc32c(data, state);
}

std::uint32_t format_checksum(FormatSum sum, std::span<const std::uint8_t> data) {
  return format_checksum_update(sum, format_checksum_init(sum), data);
}

std::uint32_t format_checksum(FormatSum sum, std::string_view text) {
  return format_checksum(sum, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

}  // namespace hybrid
