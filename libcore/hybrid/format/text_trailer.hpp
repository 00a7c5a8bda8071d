#pragma once
// The length-and-checksum trailer that ends atenia's key=value text files (the checkpoint
// manifest, the self-training table): the byte length of everything before the trailer and a
// 32-bit checksum of those bytes. Format v1 used FNV-1a, which catches a torn write but few
// corruptions; v2 uses CRC-32C. Writers write v2; readers take both, told by the file's header.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hybrid {

enum class TrailerSum {
  fnv1a,   // format v1
  crc32c,  // format v2
};

// The trailer key that holds the checksum, without '=': "checksum32" (v1) or "crc32c" (v2).
[[nodiscard]] std::string_view trailer_sum_name(TrailerSum sum);

[[nodiscard]] std::uint32_t text_checksum(TrailerSum sum, std::string_view body);

// Why a trailer saying (len, sum) does not cover `body`, or nullopt when it does. `what` names
// the file's kind in the message: "length mismatch: trailer says 10 bytes, manifest has 9".
[[nodiscard]] std::optional<std::string> trailer_mismatch(TrailerSum algo, std::string_view body, std::uint64_t len,
                                                          std::uint32_t sum, std::string_view what);

}  // namespace hybrid
