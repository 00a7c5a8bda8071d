#include "hybrid/explain/learning_snapshot.hpp"

#include <limits>

namespace hybrid {

ContextBucket to_bucket(const LearningContextSnapshot& ctx) {
  return {ctx.gpu_available, ctx.vram_band, ctx.ram_band};
}

LearningSnapshot learning_snapshot(const SelfTrainer& trainer) {
  LearningSnapshot snap;
  // all_stats() is already ordered by context then backend, so no sort is needed here.
  for (const StatsEntry& row : trainer.all_stats()) {
    LearningEntrySnapshot e;
    e.context = {row.bucket.gpu_available, row.bucket.vram_band, row.bucket.ram_band};
    e.backend = row.backend;
    e.recommended_backend = trainer.recommend_for_bucket(row.bucket);
    e.stats.episodes = row.stats.count;
    e.stats.successes = row.stats.success_count;
    e.stats.drift_events = row.stats.drift_count;
    e.stats.average_score = row.stats.count == 0
                                ? 0.0F
                                : static_cast<float>(static_cast<double>(row.stats.score_sum) / row.stats.count);
    snap.entries.push_back(e);
  }
  std::uint64_t episodes = 0;
  std::size_t gpu_rows = 0;
  for (const auto& e : snap.entries) {
    const std::uint64_t room = std::numeric_limits<std::uint64_t>::max() - episodes;
    episodes = e.stats.episodes > room ? std::numeric_limits<std::uint64_t>::max() : episodes + e.stats.episodes;
    if (e.recommended_backend == BackendChoice::gpu) ++gpu_rows;
  }
  snap.summary.total_entries = snap.entries.size();
  snap.summary.total_episodes = episodes;
  snap.summary.gpu_preference_ratio =
      snap.entries.empty() ? 0.0F : static_cast<float>(gpu_rows) / static_cast<float>(snap.entries.size());
  return snap;
}

}  // namespace hybrid
