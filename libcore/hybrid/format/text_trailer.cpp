#include "hybrid/format/text_trailer.hpp"

namespace hybrid {

std::optional<std::string> trailer_mismatch(FormatSum algo, std::string_view body, std::uint64_t len,
                                            std::uint32_t sum, std::string_view what) {
  if (len != body.size()) {
    return "length mismatch: trailer says " + std::to_string(len) + " bytes, " + std::string(what) + " has " +
           std::to_string(body.size());
  }
  const std::uint32_t actual = format_checksum(algo, body);
  if (sum != actual) {
    return "checksum mismatch: trailer says " + std::to_string(sum) + ", " + std::string(what) + " hashes to " +
           std::to_string(actual);
  }
  return std::nullopt;
}

}  // namespace hybrid
