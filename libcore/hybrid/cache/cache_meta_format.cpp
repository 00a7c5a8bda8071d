#include "hybrid/cache/cache_meta_format.hpp"

#include <charconv>
#include <limits>

#include "hybrid/format/kv_lines.hpp"

namespace hybrid {

namespace {

template <typename T>
bool parse_decimal(std::string_view s, T& out) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

CacheError corrupt(const std::string& what) { return CacheError::corrupt("Malformed cache meta: " + what); }

}  // namespace

std::string format_cache_meta(const CacheEntryMeta& meta) {
  std::string s;
  s += "kind=";
  s += to_string(meta.kind);
  s += "\nlen=" + std::to_string(meta.len_bytes);
  s += "\n" + std::string(format_sum_name(meta.sum)) + "=" + std::to_string(meta.checksum32);
  s += "\ncreated_unix=" + std::to_string(meta.created_unix);
  if (meta.key) s += "\nkey=" + *meta.key;
  s += "\n";
  return s;
}

CacheResult<CacheEntryMeta> parse_cache_meta(std::string_view text) {
  CacheEntryMeta meta;
  bool seen_kind = false, seen_len = false, seen_sum = false, seen_created = false, seen_key = false;
  LineReader lines(text);
  while (auto line = lines.next()) {
    if (line->text.empty()) continue;
    const auto kv = split_key_value(line->text);
    if (!kv) return corrupt("line " + std::to_string(line->number) + " has no '='");
    const std::string_view key = kv->key;
    const std::string_view value = kv->value;
    auto dup = [&](bool& seen) {
      if (seen) return true;
      seen = true;
      return false;
    };
    if (key == "kind") {
      if (dup(seen_kind)) return corrupt("duplicate key kind");
      auto k = parse_cache_kind(value);
      if (!k) return corrupt("unknown kind '" + std::string(value) + "'");
      meta.kind = *k;
    } else if (key == "len") {
      if (dup(seen_len)) return corrupt("duplicate key len");
      if (!parse_decimal(value, meta.len_bytes)) return corrupt("invalid len '" + std::string(value) + "'");
    } else if (key == "checksum32" || key == "crc32c") {
      if (dup(seen_sum)) return corrupt("duplicate payload checksum (checksum32 or crc32c)");
      meta.sum = key == "crc32c" ? FormatSum::crc32c : FormatSum::fnv1a;
      if (!parse_decimal(value, meta.checksum32)) {
        return corrupt("invalid " + std::string(key) + " '" + std::string(value) + "'");
      }
    } else if (key == "created_unix") {
      if (dup(seen_created)) return corrupt("duplicate key created_unix");
      if (!parse_decimal(value, meta.created_unix)) {
        return corrupt("invalid created_unix '" + std::string(value) + "'");
      }
    } else if (key == "key") {
      if (dup(seen_key)) return corrupt("duplicate key key");
      if (value.empty()) return corrupt("empty key");
      meta.key = std::string(value);
    } else {
      return corrupt("unknown key '" + std::string(key) + "'");
    }
  }
  if (!seen_kind) return corrupt("missing key kind");
  if (!seen_len) return corrupt("missing key len");
  if (!seen_sum) return corrupt("missing key crc32c (or checksum32)");
  if (!seen_created) return corrupt("missing key created_unix");
  return meta;
}

}  // namespace hybrid
