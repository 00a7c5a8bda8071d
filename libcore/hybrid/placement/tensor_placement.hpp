#pragma once
// APX 13.1.0-13.1.2: the seed's placement thresholds and GPU choice, which decide_with_capacity
// (capacity_placement.hpp) applies to the pressure each tier would have after a placement.
#include <cstdint>
#include <optional>
#include <utility>

#include "hybrid/placement/placement_types.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

namespace placement {
inline constexpr float kVramSafe = 0.80F;
inline constexpr float kRamSafe = 0.85F;
inline constexpr std::uint64_t kTensorHugeBytes = 512ull * 1024 * 1024;
inline constexpr float kComputeHeavy = 100.0F;  // abstract units
inline constexpr float kVramCritical = 0.95F;
inline constexpr float kRamCritical = 0.95F;
inline constexpr float kRamVeryHigh = 0.90F;
inline constexpr bool kSsdLastResortAllowed = true;
// A GPU at or above this reliability takes tensors that are not compute-heavy.
inline constexpr float kGpuReliable = 0.75F;
// Penalty applied when a device has a recorded error (no wall-clock involved).
inline constexpr float kRecentErrorPenalty = 0.85F;
}  // namespace placement

[[nodiscard]] float clamp01(float x);  // NaN -> 0

// No stats -> 1.0; else ok/(ok+fail) (1.0 when both are 0), clamped, times 0.85 when an error
// time is recorded.
[[nodiscard]] float reliability_score(const ReliabilityStats* stats);

// Highest reliability, then highest compute score (absent = 0), then smallest id.
[[nodiscard]] std::optional<std::pair<const GpuCaps*, float>> best_gpu(const GlobalHardwareSnapshot& hw);

}  // namespace hybrid
