#pragma once
// The value types a self-training episode is made of (APX 13.10.0).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hybrid {

// Where the self-trainer runs work: the one backend type of learning and its explanations.
enum class BackendChoice : std::uint8_t { cpu, gpu };

// "cpu" / "gpu": the self-training table and the JSON of learning episodes and stats rows.
[[nodiscard]] constexpr std::string_view to_string(BackendChoice b) { return b == BackendChoice::gpu ? "gpu" : "cpu"; }
// "CPU" / "GPU": explanations and recommendations, as the seed prints them (APX 13.11).
[[nodiscard]] constexpr std::string_view display_name(BackendChoice b) {
  return b == BackendChoice::gpu ? "GPU" : "CPU";
}

struct ExecutionContext {
  bool gpu_available = false;
  float vram_pressure = 0.0F;
  float ram_pressure = 0.0F;
};

// A warm-start plan reduced to a backend guess and its action counts.
struct DecisionSummary {
  BackendChoice backend = BackendChoice::cpu;
  std::size_t promote_count = 0;
  std::size_t degrade_count = 0;
  std::size_t keep_count = 0;
};

struct EpisodeOutcome {
  bool success = false;
  std::int32_t score = 0;
  bool had_drift = false;
};

struct TrainingEpisode {
  ExecutionContext ctx;
  DecisionSummary decision;
  EpisodeOutcome outcome;
};

}  // namespace hybrid
