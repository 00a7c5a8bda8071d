#pragma once
// APX 13.8.0: persistent cache namespaces, entry metadata and errors.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "hybrid/format/format_sum.hpp"
#include <string_view>

#include "common/error.hpp"
#include "common/expected.hpp"

namespace hybrid {

enum class CacheKind : std::uint8_t { Tensor, Gradient, KernelMeta };

// Directory name and meta-file value: "tensor", "gradient", "kernel_meta".
[[nodiscard]] const char* to_string(CacheKind kind);
// Accepts "tensor", "gradient", "kernel_meta" and the legacy spelling "kernelmeta".
[[nodiscard]] std::optional<CacheKind> parse_cache_kind(std::string_view text);

struct CacheEntryMeta {
  CacheKind kind = CacheKind::Tensor;
  std::size_t len_bytes = 0;
  std::uint32_t checksum32 = 0;
  std::uint64_t created_unix = 0;  // caller-supplied logical time
  // The entry's own key, so a .bin + .meta pair copied or swapped under another key's name is
  // detected (absent in metas written before it was added, which still load).
  std::optional<std::string> key{};
  // Which checksum32 holds: CRC-32C (format v2, key crc32c=) or FNV-1a (v1, key checksum32=).
  FormatSum sum = FormatSum::Crc32c;

  friend bool operator==(const CacheEntryMeta&, const CacheEntryMeta&) = default;
};

struct CacheError {
  enum class Kind : std::uint8_t { Io, NotFound, Corrupt, AlreadyExists, InvalidKey };

  Kind kind = Kind::Io;
  std::string message;  // English, one line; names the entry where there is one

  static CacheError io(std::string m) { return {Kind::Io, std::move(m)}; }
  static CacheError not_found(std::string m = "entry not found") { return {Kind::NotFound, std::move(m)}; }
  static CacheError corrupt(std::string m) { return {Kind::Corrupt, std::move(m)}; }
  static CacheError already_exists(std::string m = "entry already exists") {
    return {Kind::AlreadyExists, std::move(m)};
  }
  static CacheError invalid_key(std::string m) { return {Kind::InvalidKey, std::move(m)}; }

  friend bool operator==(const CacheError&, const CacheError&) = default;
};

[[nodiscard]] const char* to_string(CacheError::Kind kind);  // "Io", "NotFound", ...
[[nodiscard]] std::string to_string(const CacheError& e);     // "Corrupt: <message>"
// For apps: Io -> io, Corrupt -> malformed, NotFound/AlreadyExists/InvalidKey -> invalid_argument.
[[nodiscard]] common::Error to_common_error(const CacheError& e);

template <typename T>
using CacheResult = common::Expected<T, CacheError>;

}  // namespace hybrid
