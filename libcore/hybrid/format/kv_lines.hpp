#pragma once
// The one reader of atenia's line-oriented key=value text files (checkpoint manifest, cache
// .meta, self-training table, probe caches): lines split at '\n', numbered from 1, with the
// byte offset where each starts (the trailer covers the bytes before its own line), and a
// line split at its first '='. Each format keeps its own rules on keys; this keeps the
// splitting, numbering and offsets in one place.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hybrid {

struct TextLine {
  std::string_view text;    // without its '\n' (nor a '\r' before it, when the reader strips it)
  std::int64_t number = 0;  // from 1
  std::size_t offset = 0;   // byte offset of the line's first character
};

class LineReader {
 public:
  enum class Cr { keep, strip };
  explicit LineReader(std::string_view text, Cr cr = Cr::keep) : text_(text), cr_(cr) {}
  // The next line, or nullopt after the last. A final line without '\n' is still a line.
  [[nodiscard]] std::optional<TextLine> next();

 private:
  std::string_view text_;
  Cr cr_;
  std::size_t offset_ = 0;
  std::int64_t number_ = 0;
};

struct KeyValue {
  std::string_view key;
  std::string_view value;
};

// `line` split at its first '=' (the value may hold more); nullopt when it has none.
[[nodiscard]] std::optional<KeyValue> split_key_value(std::string_view line);

// A value that is all decimal digits of a T (a leading '-' for signed T), nothing else; nullopt
// when empty, out of range or followed by anything.
template <typename T>
[[nodiscard]] std::optional<T> parse_decimal(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace hybrid
