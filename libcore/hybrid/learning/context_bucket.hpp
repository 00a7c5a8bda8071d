#pragma once
// Pressures binned into four bands so the learning table stays small (APX 13.10.0).
#include <compare>
#include <cstdint>

#include "hybrid/learning/episode.hpp"

namespace hybrid {

struct ContextBucket {
  bool gpu_available = false;
  std::uint8_t vram_band = 0;
  std::uint8_t ram_band = 0;
  auto operator<=>(const ContextBucket&) const = default;
};

struct ChoiceStats {
  std::uint32_t count = 0;
  std::uint32_t success_count = 0;
  std::int64_t score_sum = 0;
  std::uint32_t drift_count = 0;
  bool operator==(const ChoiceStats&) const = default;
};

inline constexpr std::uint8_t kMaxBand = 3;

// 0 below 0.50, 1 below 0.75, 2 below 0.90, 3 otherwise (NaN lands in band 3).
[[nodiscard]] std::uint8_t band_for_pressure(float pressure);
[[nodiscard]] ContextBucket bucket_for(const ExecutionContext& ctx);

}  // namespace hybrid
