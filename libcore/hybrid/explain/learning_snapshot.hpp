#pragma once
// A read-only, deterministically ordered view of the learning table (APX 13.11.0).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "hybrid/learning/self_trainer.hpp"

namespace hybrid {

struct LearningContextSnapshot {
  bool gpu_available = false;
  std::uint8_t vram_band = 0;
  std::uint8_t ram_band = 0;
  bool operator==(const LearningContextSnapshot&) const = default;
};

struct LearningStatsSnapshot {
  std::uint32_t episodes = 0;
  std::uint32_t successes = 0;
  std::uint32_t drift_events = 0;
  float average_score = 0.0F;
};

// One per (context, backend) row of the table; recommended_backend is what the trainer
// prefers for the row's context, so rows of one context agree on it.
struct LearningEntrySnapshot {
  LearningContextSnapshot context;
  BackendChoice backend = BackendChoice::cpu;
  BackendChoice recommended_backend = BackendChoice::cpu;
  LearningStatsSnapshot stats;
};

struct LearningSummary {
  std::size_t total_entries = 0;
  std::uint64_t total_episodes = 0;
  float gpu_preference_ratio = 0.0F;  // entries recommending GPU / total_entries
};

struct LearningSnapshot {
  std::vector<LearningEntrySnapshot> entries;  // by (gpu_available, vram_band, ram_band, backend)
  LearningSummary summary;
};

[[nodiscard]] LearningSnapshot learning_snapshot(const SelfTrainer& trainer);
[[nodiscard]] ContextBucket to_bucket(const LearningContextSnapshot& ctx);

}  // namespace hybrid
