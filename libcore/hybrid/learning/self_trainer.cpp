#include "hybrid/learning/self_trainer.hpp"

#include <limits>

namespace hybrid {

namespace {

std::uint32_t saturating_inc(std::uint32_t v) { return v == std::numeric_limits<std::uint32_t>::max() ? v : v + 1; }

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b) return std::numeric_limits<std::int64_t>::max();
  if (b < 0 && a < std::numeric_limits<std::int64_t>::min() - b) return std::numeric_limits<std::int64_t>::min();
  return a + b;
}

}  // namespace

bool SelfTrainer::record_episode(const TrainingEpisode& ep) {
  ChoiceStats& s = table_[{bucket_for(ep.ctx), ep.decision.backend}];
  // A full row takes nothing more: counting the score without the episode would skew
  // the average the recommendation is made from.
  if (s.count == std::numeric_limits<std::uint32_t>::max()) return false;
  s.count = saturating_inc(s.count);
  if (ep.outcome.success) s.success_count = saturating_inc(s.success_count);
  s.score_sum = saturating_add(s.score_sum, ep.outcome.score);
  if (ep.outcome.had_drift) s.drift_count = saturating_inc(s.drift_count);
  return true;
}

std::int64_t SelfTrainer::value_for(const ContextBucket& bucket, BackendChoice backend) const {
  auto it = table_.find({bucket, backend});
  if (it == table_.end() || it->second.count == 0) return 0;
  const ChoiceStats& s = it->second;
  const auto count = static_cast<std::int64_t>(s.count);
  const std::int64_t avg_score = s.score_sum / count;
  const std::int64_t penalty = static_cast<std::int64_t>(s.drift_count) * kDriftPenalty / count;
  return avg_score - penalty;
}

BackendChoice SelfTrainer::recommend_for_bucket(const ContextBucket& bucket) const {
  if (!bucket.gpu_available) return BackendChoice::cpu;
  // A tie goes to the CPU: stability is preferred without a clear signal.
  return value_for(bucket, BackendChoice::gpu) > value_for(bucket, BackendChoice::cpu) ? BackendChoice::gpu
                                                                                       : BackendChoice::cpu;
}

std::optional<ChoiceStats> SelfTrainer::stats_for_bucket(const ContextBucket& bucket, BackendChoice backend) const {
  auto it = table_.find({bucket, backend});
  if (it == table_.end()) return std::nullopt;
  return it->second;
}

std::vector<StatsEntry> SelfTrainer::all_stats() const {
  std::vector<StatsEntry> out;
  out.reserve(table_.size());
  for (const auto& [key, stats] : table_) out.push_back({key.first, key.second, stats});
  return out;
}

void SelfTrainer::set_stats_entry(const ContextBucket& bucket, BackendChoice backend, const ChoiceStats& stats) {
  table_[{bucket, backend}] = stats;
}

}  // namespace hybrid
