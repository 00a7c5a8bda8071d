#pragma once
// The learning table: per (context bucket, backend) counters, and the CPU/GPU
// recommendation derived from them (APX 13.10.0).
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "hybrid/learning/context_bucket.hpp"
#include "hybrid/learning/episode.hpp"

namespace hybrid {

// Subtracted from a backend's average score in proportion to its drift rate.
inline constexpr std::int64_t kDriftPenalty = 5;

struct StatsEntry {
  ContextBucket bucket;
  BackendChoice backend = BackendChoice::cpu;
  ChoiceStats stats;
};

class SelfTrainer {
 public:
  // false (and nothing recorded) when the row already holds 2^32-1 episodes.
  bool record_episode(const TrainingEpisode& ep);

  [[nodiscard]] BackendChoice recommend_for_bucket(const ContextBucket& bucket) const;
  [[nodiscard]] std::optional<ChoiceStats> stats_for_bucket(const ContextBucket& bucket, BackendChoice backend) const;

  // Every entry, ordered by (gpu_available, vram_band, ram_band, backend).
  [[nodiscard]] std::vector<StatsEntry> all_stats() const;
  void set_stats_entry(const ContextBucket& bucket, BackendChoice backend, const ChoiceStats& stats);
  [[nodiscard]] bool empty() const { return table_.empty(); }

  // avg_score - drift_count * kDriftPenalty / count, all in integer arithmetic; 0 without data.
  [[nodiscard]] std::int64_t value_for(const ContextBucket& bucket, BackendChoice backend) const;

 private:
  std::map<std::pair<ContextBucket, BackendChoice>, ChoiceStats> table_;
};

}  // namespace hybrid
