#pragma once
// Base64 (RFC 4648, standard alphabet, padded, no line breaks): encoded by OpenSSL's libcrypto,
// decoded in one pass here.
// decode_base64 is strict: it takes exactly what encode_base64 writes (a length that is a
// multiple of 4, the alphabet, '=' only as final padding, zero padding bits) and nothing else,
// so one byte string has one text.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace common {

[[nodiscard]] std::string encode_base64(std::span<const std::byte> bytes);
// nullopt when `text` is not the canonical base64 of some bytes.
[[nodiscard]] std::optional<std::vector<std::byte>> decode_base64(std::string_view text);

}  // namespace common
