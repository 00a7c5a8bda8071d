#pragma once
// The length-and-checksum trailer that ends atenia's key=value text files (the checkpoint
// manifest, the self-training table): the byte length of everything before the trailer and a
// 32-bit checksum of those bytes, FNV-1a in format v1 and CRC-32C in v2 (format_sum.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hybrid/format/format_sum.hpp"

namespace hybrid {

// Why a trailer saying (len, sum) does not cover `body`, or nullopt when it does. `what` names
// the file's kind in the message: "length mismatch: trailer says 10 bytes, manifest has 9".
[[nodiscard]] std::optional<std::string> trailer_mismatch(FormatSum algo, std::string_view body, std::uint64_t len,
                                                          std::uint32_t sum, std::string_view what);

}  // namespace hybrid
