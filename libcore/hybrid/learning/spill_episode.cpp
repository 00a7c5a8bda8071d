#include "hybrid/learning/spill_episode.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hybrid {

bool is_tier_label(std::string_view label) {
  if (label.empty() || label.size() > kMaxTierLabel) return false;
  auto ok = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; };
  return std::all_of(label.begin(), label.end(), ok) && label.front() != '_' && label.front() != '-';
}

bool is_spill_codec(std::string_view codec) { return codec == "zstd" || codec == "none"; }

std::int32_t spill_score(std::uint64_t moved_bytes, double seconds) {
  if (moved_bytes == 0) return 0;
  const double kib_s = static_cast<double>(moved_bytes) / 1024.0 / std::max(seconds, 1e-6);
  if (!(kib_s < static_cast<double>(std::numeric_limits<std::int32_t>::max()))) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(std::lround(kib_s));
}

}  // namespace hybrid
