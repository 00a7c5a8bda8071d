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

enum class CacheKind : std::uint8_t { tensor, gradient, kernel_meta };

// Directory name and meta-file value: "tensor", "gradient", "kernel_meta".
[[nodiscard]] const char* to_string(CacheKind kind);
// Accepts "tensor", "gradient", "kernel_meta" and the legacy spelling "kernelmeta".
[[nodiscard]] std::optional<CacheKind> parse_cache_kind(std::string_view text);

struct CacheEntryMeta {
  CacheKind kind = CacheKind::tensor;
  std::size_t len_bytes = 0;
  std::uint32_t checksum32 = 0;
  std::uint64_t created_unix = 0;  // caller-supplied logical time
  // The entry's own key, so a .bin + .meta pair copied or swapped under another key's name is
  // detected (absent in metas written before it was added, which still load).
  std::optional<std::string> key{};
  // Which checksum32 holds: CRC-32C (format v2, key crc32c=) or FNV-1a (v1, key checksum32=).
  FormatSum sum = FormatSum::crc32c;

  friend bool operator==(const CacheEntryMeta&, const CacheEntryMeta&) = default;
};

// Why a cache call failed. Callers branch on it: a reader falls back from a missing payload to
// the next one (not_found), a checkpoint reports a missing blob apart from a corrupt one, a save
// that must not overwrite learns the entry is there (already_exists).
enum class CacheFailure : std::uint8_t { io, not_found, corrupt, already_exists, invalid_key };

// A common::Error with its CacheFailure; `return e;` into a common::Result keeps kind and message.
// The kind follows the failure: io -> io, corrupt -> malformed, not_found, already_exists and
// invalid_key -> invalid_argument.
class CacheError : public common::Error {
 public:
  CacheError(CacheFailure failure, std::string message);  // message: English, one line, names the entry

  static CacheError io(std::string m) { return {CacheFailure::io, std::move(m)}; }
  static CacheError not_found(std::string m = "entry not found") { return {CacheFailure::not_found, std::move(m)}; }
  static CacheError corrupt(std::string m) { return {CacheFailure::corrupt, std::move(m)}; }
  static CacheError already_exists(std::string m = "entry already exists") {
    return {CacheFailure::already_exists, std::move(m)};
  }
  static CacheError invalid_key(std::string m) { return {CacheFailure::invalid_key, std::move(m)}; }

  [[nodiscard]] CacheFailure kind() const { return kind_; }

 private:
  CacheFailure kind_;
};

[[nodiscard]] const char* to_string(CacheFailure failure);  // "Io", "NotFound", ...
[[nodiscard]] std::string to_string(const CacheError& e);   // "Corrupt: <message>"

template <typename T>
using CacheResult = common::Expected<T, CacheError>;

}  // namespace hybrid
