#include "hybrid/learning/spill_trainer.hpp"

#include <algorithm>
#include <limits>

#include "hybrid/learning/context_bucket.hpp"

namespace hybrid {

common::Status SpillTrainer::record_episode(const SpillEpisode& ep) {
  constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();
  const std::uint8_t band = band_for_pressure(ep.ram_pressure);
  auto row = [&] {  // named only in a refusal
    return "the spill row (ram_band " + std::to_string(band) + ", tier " + ep.decision.tier + ", codec " + ep.decision.codec + ")";
  };
  const SpillOutcome& o = ep.outcome;
  if (o.restored_bytes > kMaxBytes - o.spilled_bytes) {
    return common::Error::invalid_argument("an episode for " + row() + " moved more than " + std::to_string(kMaxBytes) +
                                           " bytes out and back, the most a row can count");
  }
  const std::uint64_t moved = o.spilled_bytes + o.restored_bytes;
  const auto key = std::make_tuple(band, ep.decision.tier, ep.decision.codec);
  const auto it = table_.find(key);
  const SpillStats before = it == table_.end() ? SpillStats{} : it->second;
  if (before.count == std::numeric_limits<std::uint32_t>::max()) {
    return common::Error::invalid_argument(row() + " already holds " + std::to_string(before.count) +
                                           " episodes, the most a row can count");
  }
  if (moved > kMaxBytes - before.moved_bytes) {
    return common::Error::invalid_argument(row() + " already counts " + std::to_string(before.moved_bytes) +
                                           " bytes moved; " + std::to_string(moved) + " more would pass " +
                                           std::to_string(kMaxBytes) + ", the most a row can count");
  }
  SpillStats& s = table_[key];
  ++s.count;
  // Scores are int32 and counts below 2^32: the sum stays far inside int64.
  s.score_sum += o.score;
  s.moved_bytes += moved;
  return {};
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
