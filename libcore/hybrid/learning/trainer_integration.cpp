#include "hybrid/learning/trainer_integration.hpp"

#include <cmath>

namespace hybrid {

namespace {

float clamp_pressure(float p) {
  if (std::isnan(p) || p < 0.0F) return 0.0F;
  return p > 1.0F ? 1.0F : p;
}

}  // namespace

ExecutionContext context_from_pressures(bool gpu_available, float vram_pressure, float ram_pressure) {
  return {gpu_available, clamp_pressure(vram_pressure), clamp_pressure(ram_pressure)};
}

}  // namespace hybrid
