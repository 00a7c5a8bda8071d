#include "hybrid/learning/spill_table_rows.hpp"

#include <optional>
#include <set>

#include "hybrid/format/kv_lines.hpp"
#include "hybrid/learning/context_bucket.hpp"

namespace hybrid {

std::string format_spill_row(const SpillStatsEntry& e) {
  return std::string(kSpillRowTag) + "ram_band=" + std::to_string(e.ram_band) + ";tier=" + e.decision.tier +
         ";codec=" + e.decision.codec + ";count=" + std::to_string(e.stats.count) +
         ";score_sum=" + std::to_string(e.stats.score_sum) + ";moved_bytes=" + std::to_string(e.stats.moved_bytes);
}

std::variant<SpillStatsEntry, std::string> parse_spill_row(std::string_view line) {
  SpillStatsEntry e;
  std::set<std::string_view> seen;
  std::string_view rest = line.substr(kSpillRowTag.size());
  while (!rest.empty()) {
    const std::size_t semi = rest.find(';');
    const std::string_view seg = rest.substr(0, semi);
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const std::size_t eq = seg.find('=');
    if (eq == std::string_view::npos) return "spill row: '" + std::string(seg) + "' is not key=value";
    const std::string_view key = seg.substr(0, eq), val = seg.substr(eq + 1);
    if (!seen.insert(key).second) return "spill row: key '" + std::string(key) + "' appears twice";
    const std::string bad = "spill row: " + std::string(key) + " ";
    if (key == "ram_band") {
      auto b = parse_decimal<std::uint8_t>(val);
      if (!b || *b > kMaxBand) return bad + "must be 0..3, got '" + std::string(val) + "'";
      e.ram_band = *b;
    } else if (key == "tier") {
      if (!is_tier_label(val)) return bad + "must be 1..32 of a-z 0-9 _ -, got '" + std::string(val) + "'";
      e.decision.tier = val;
    } else if (key == "codec") {
      if (!is_spill_codec(val)) return bad + "must be zstd or none, got '" + std::string(val) + "'";
      e.decision.codec = val;
    } else if (key == "count") {
      auto n = parse_decimal<std::uint32_t>(val);
      if (!n) return bad + "must be an unsigned 32-bit integer, got '" + std::string(val) + "'";
      e.stats.count = *n;
    } else if (key == "score_sum") {
      auto n = parse_decimal<std::int64_t>(val);
      if (!n) return bad + "must be a signed 64-bit integer, got '" + std::string(val) + "'";
      e.stats.score_sum = *n;
    } else if (key == "moved_bytes") {
      auto n = parse_decimal<std::uint64_t>(val);
      if (!n) return bad + "must be an unsigned 64-bit integer, got '" + std::string(val) + "'";
      e.stats.moved_bytes = *n;
    }  // other keys: ignored here, as in the CPU/GPU rows; the tools' strict reader refuses them
  }
  for (std::string_view k : kSpillRowKeys) {
    if (!seen.contains(k)) return "spill row: missing required key '" + std::string(k) + "'";
  }
  return e;
}

}  // namespace hybrid
