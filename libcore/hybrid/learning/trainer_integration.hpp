#pragma once
// APX 13.10.1: the execution context an episode is learned under, as `atenia learn` derives it
// from an episode record.
#include "hybrid/learning/self_trainer.hpp"

namespace hybrid {

// Pressures clamped into [0, 1]; NaN becomes 0.
[[nodiscard]] ExecutionContext context_from_pressures(bool gpu_available, float vram_pressure, float ram_pressure);

}  // namespace hybrid
