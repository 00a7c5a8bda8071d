#include "hybrid/learning/trainer_integration.hpp"

#include <cmath>

#include <doctest/doctest.h>

using namespace hybrid;

TEST_CASE("trainer_integration: clamp_pressures_is_safe") {
  const auto ctx = context_from_pressures(true, 2.0F, -1.0F);
  CHECK(ctx.vram_pressure == 1.0F);
  CHECK(ctx.ram_pressure == 0.0F);
  const auto nan_ctx = context_from_pressures(false, std::nanf(""), 0.5F);
  CHECK(nan_ctx.vram_pressure == 0.0F);
  CHECK(nan_ctx.ram_pressure == 0.5F);
}
