#include "hybrid/format/kv_lines.hpp"

namespace hybrid {

std::optional<TextLine> LineReader::next() {
  if (offset_ >= text_.size()) return std::nullopt;
  const std::size_t start = offset_;
  const auto nl = text_.find('\n', start);
  std::string_view line = text_.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
  offset_ = nl == std::string_view::npos ? text_.size() : nl + 1;
  if (cr_ == Cr::strip && !line.empty() && line.back() == '\r') line.remove_suffix(1);
  return TextLine{line, ++number_, start};
}

std::optional<KeyValue> split_key_value(std::string_view line) {
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return KeyValue{line.substr(0, eq), line.substr(eq + 1)};
}

}  // namespace hybrid
