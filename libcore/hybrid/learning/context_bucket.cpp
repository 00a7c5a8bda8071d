#include "hybrid/learning/context_bucket.hpp"

namespace hybrid {

std::uint8_t band_for_pressure(float pressure) {
  if (pressure < 0.50F) return 0;
  if (pressure < 0.75F) return 1;
  if (pressure < 0.90F) return 2;
  return 3;
}

ContextBucket bucket_for(const ExecutionContext& ctx) {
  return {ctx.gpu_available, band_for_pressure(ctx.vram_pressure), band_for_pressure(ctx.ram_pressure)};
}

}  // namespace hybrid
