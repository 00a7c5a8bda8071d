#pragma once
// The spill half of the learning table: per (RAM band, tier, codec) how many runs chose it and
// the throughput they measured, and the choice that follows. Kept apart from SelfTrainer's
// CPU/GPU rows: a spill decision has no backend, and its rows have their own line format.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "common/result.hpp"
#include "hybrid/learning/spill_episode.hpp"

namespace hybrid {

struct SpillStats {
  std::uint32_t count = 0;
  std::int64_t score_sum = 0;     // sum of the runs' KiB/s
  std::uint64_t moved_bytes = 0;  // out and back, all runs (at most 2^64-1: record_episode)
  bool operator==(const SpillStats&) const = default;
  // The mean KiB/s (integer division); 0 without runs.
  [[nodiscard]] std::int64_t mean_score() const { return count == 0 ? 0 : score_sum / static_cast<std::int64_t>(count); }
};

struct SpillStatsEntry {
  std::uint8_t ram_band = 0;
  SpillDecision decision;
  SpillStats stats;
};

class SpillTrainer {
 public:
  // Refused, invalid_argument, and nothing recorded (no row added) when the row already holds
  // 2^32-1 episodes, or when its bytes moved would pass 2^64-1 (counted exactly, never saturated).
  [[nodiscard]] common::Status record_episode(const SpillEpisode& ep);
  void set_stats_entry(std::uint8_t ram_band, const SpillDecision& d, const SpillStats& s);

  // Every entry, ordered by (ram_band, tier, codec).
  [[nodiscard]] std::vector<SpillStatsEntry> all_stats() const;
  // This band's entries, in the same order.
  [[nodiscard]] std::vector<SpillStatsEntry> stats_for_band(std::uint8_t ram_band) const;
  [[nodiscard]] bool empty() const { return table_.empty(); }

  // The learned decision with the highest mean KiB/s in this band, among `candidates` (empty:
  // any learned one); ties go to more runs, then to the first in (tier, codec) order, so the
  // answer never depends on anything but the table. None when no candidate has a run.
  [[nodiscard]] std::optional<SpillStatsEntry> recommend(std::uint8_t ram_band, std::span<const SpillDecision> candidates = {}) const;

 private:
  std::map<std::tuple<std::uint8_t, std::string, std::string>, SpillStats> table_;
};

}  // namespace hybrid
