#include "hybrid/placement/tensor_placement.hpp"

#include <cmath>

namespace hybrid {

float clamp01(float x) {
  if (std::isnan(x)) return 0.0F;
  return x < 0.0F ? 0.0F : (x > 1.0F ? 1.0F : x);
}

float reliability_score(const ReliabilityStats* stats) {
  if (stats == nullptr) return 1.0F;
  const std::uint64_t total = stats->ok_count + stats->fail_count;
  float score = total == 0 ? 1.0F : static_cast<float>(static_cast<double>(stats->ok_count) / static_cast<double>(total));
  score = clamp01(score);
  if (stats->last_error_epoch_ms.has_value()) score *= placement::kRecentErrorPenalty;
  return score;
}

std::optional<std::pair<const GpuCaps*, float>> best_gpu(const GlobalHardwareSnapshot& hw) {
  std::optional<std::pair<const GpuCaps*, float>> best;
  for (const GpuCaps& gpu : hw.gpus) {
    auto it = hw.reliability_by_device.find(gpu.id);
    const float rel = reliability_score(it == hw.reliability_by_device.end() ? nullptr : &it->second);
    if (!best) {
      best.emplace(&gpu, rel);
      continue;
    }
    const float best_rel = best->second;
    const float score = gpu.compute_score_est.value_or(0.0F);
    const float best_score = best->first->compute_score_est.value_or(0.0F);
    const bool better = rel > best_rel || (rel == best_rel && score > best_score) ||
                        (rel == best_rel && score == best_score && gpu.id < best->first->id);
    if (better) best.emplace(&gpu, rel);
  }
  return best;
}

}  // namespace hybrid
