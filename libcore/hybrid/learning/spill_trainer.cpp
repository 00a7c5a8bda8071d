#include "hybrid/learning/spill_trainer.hpp"

#include <algorithm>
#include <limits>

#include "hybrid/learning/context_bucket.hpp"

namespace hybrid {

bool SpillTrainer::record_episode(const SpillEpisode& ep) {
  SpillStats& s = table_[{band_for_pressure(ep.ram_pressure), ep.decision.tier, ep.decision.codec}];
  if (s.count == std::numeric_limits<std::uint32_t>::max()) return false;
  ++s.count;
  // Scores are int32 and counts below 2^32: the sum stays far inside int64.
  s.score_sum += ep.outcome.score;
  const std::uint64_t moved = ep.outcome.spilled_bytes + ep.outcome.restored_bytes;
  const std::uint64_t room = std::numeric_limits<std::uint64_t>::max() - s.moved_bytes;
  s.moved_bytes += std::min(moved, room);
  return true;
}

void SpillTrainer::set_stats_entry(std::uint8_t ram_band, const SpillDecision& d, const SpillStats& s) {
  table_[{ram_band, d.tier, d.codec}] = s;
}

std::vector<SpillStatsEntry> SpillTrainer::all_stats() const {
  std::vector<SpillStatsEntry> out;
  out.reserve(table_.size());
  for (const auto& [key, stats] : table_) out.push_back({std::get<0>(key), {std::get<1>(key), std::get<2>(key)}, stats});
  return out;
}

std::vector<SpillStatsEntry> SpillTrainer::stats_for_band(std::uint8_t ram_band) const {
  std::vector<SpillStatsEntry> out;
  for (SpillStatsEntry& e : all_stats()) {
    if (e.ram_band == ram_band) out.push_back(std::move(e));
  }
  return out;
}

std::optional<SpillStatsEntry> SpillTrainer::recommend(std::uint8_t ram_band, std::span<const SpillDecision> candidates) const {
  std::optional<SpillStatsEntry> best;
  for (SpillStatsEntry& e : stats_for_band(ram_band)) {
    if (e.stats.count == 0) continue;
    if (!candidates.empty() && std::find(candidates.begin(), candidates.end(), e.decision) == candidates.end()) continue;
    // Entries come in (tier, codec) order: only a strictly better one replaces the best so far.
    if (!best || e.stats.mean_score() > best->stats.mean_score() ||
        (e.stats.mean_score() == best->stats.mean_score() && e.stats.count > best->stats.count)) {
      best = std::move(e);
    }
  }
  return best;
}

}  // namespace hybrid
