#include "hybrid/format/text_trailer.hpp"

#include "hybrid/cache/checksum32.hpp"
#include "hybrid/memory/crc32c.hpp"

namespace hybrid {

std::string_view trailer_sum_name(TrailerSum sum) { return sum == TrailerSum::fnv1a ? "checksum32" : "crc32c"; }

std::uint32_t text_checksum(TrailerSum sum, std::string_view body) {
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(body.data()), body.size());
  return sum == TrailerSum::fnv1a ? checksum32(bytes) : crc32c(bytes);
}

std::optional<std::string> trailer_mismatch(TrailerSum algo, std::string_view body, std::uint64_t len,
                                            std::uint32_t sum, std::string_view what) {
  if (len != body.size()) {
    return "length mismatch: trailer says " + std::to_string(len) + " bytes, " + std::string(what) + " has " +
           std::to_string(body.size());
  }
  const std::uint32_t actual = text_checksum(algo, body);
  if (sum != actual) {
    return "checksum mismatch: trailer says " + std::to_string(sum) + ", " + std::string(what) + " hashes to " +
           std::to_string(actual);
  }
  return std::nullopt;
}

}  // namespace hybrid
