#pragma once
// A spill placement episode (atenia-episode v0.2.0, "decision": "spill"): which tier and codec a
// run put its spilled tensors on, in which RAM context, and what moving them measured. Written
// by nltrain train --episodes, learnt by atenia learn beside the backend episodes of v0.1.0.
#include <cstdint>
#include <string>
#include <string_view>

namespace hybrid {

// Tier labels travel through table rows ("key=value;..."), so they are kept to a small alphabet.
inline constexpr std::size_t kMaxTierLabel = 32;
// 1..32 of a-z 0-9 _ -, starting with a letter or digit.
[[nodiscard]] bool is_tier_label(std::string_view label);

// The spill codecs a run can choose ("zstd": shuffled zstd, "none": raw).
[[nodiscard]] bool is_spill_codec(std::string_view codec);

struct SpillDecision {
  std::string tier;   // a label the user gave the directory (nltrain --spill-tier LABEL=DIR)
  std::string codec;  // "zstd" or "none"
  auto operator<=>(const SpillDecision&) const = default;
};

struct SpillOutcome {
  std::uint64_t spilled_bytes = 0, restored_bytes = 0, stored_bytes = 0;
  double write_s = 0, read_s = 0;
  std::int32_t score = 0;  // KiB/s moved: spill_score below
};

struct SpillEpisode {
  float ram_pressure = 0.0F;  // the machine's, when the run started
  SpillDecision decision;
  SpillOutcome outcome;
};

// (spilled + restored) / 2^10 / (write_s + read_s), rounded, within 0..INT32_MAX; 0 when nothing
// moved. The throughput the learner ranks tiers by (the seconds floored at 1 microsecond).
[[nodiscard]] std::int32_t spill_score(std::uint64_t moved_bytes, double seconds);

}  // namespace hybrid
