#include "hybrid/placement/tensor_placement.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace hybrid {

namespace {

// Two decimals, independent of the C locale.
std::string fixed2(float v) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::fixed, 2);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

PlacementDecision make(PlacementTarget target, std::string reason, std::optional<std::string> device = std::nullopt) {
  return PlacementDecision{target, std::move(device), std::move(reason)};
}

}  // namespace

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

PlacementDecision TensorPlacementEngine::decide(const TensorProfile& tensor, const GlobalHardwareSnapshot& hw) {
  using namespace placement;
  if (hw.gpus.empty()) return make(PlacementTarget::cpu, "No GPU detected");

  const float vram_p = hw.pressure.vram_pressure.value_or(1.0F);
  const float ram_p = hw.pressure.ram_pressure.value_or(0.0F);
  const bool huge = tensor.total_size_bytes() > kTensorHugeBytes;
  const bool heavy = tensor.estimated_compute_cost.value_or(0.0F) >= kComputeHeavy;

  if (kSsdLastResortAllowed && huge && vram_p >= kVramCritical && ram_p >= kRamCritical) {
    return make(PlacementTarget::ssd,
                "VRAM and RAM are under critical pressure; placing huge tensor on SSD as last resort");
  }
  if (kSsdLastResortAllowed && huge && ram_p > kRamVeryHigh && !heavy) {
    return make(PlacementTarget::ssd,
                "RAM pressure is very high and tensor is huge but not compute-heavy; placing tensor on SSD as "
                "last resort");
  }

  const auto gpu = best_gpu(hw);  // non-empty: there is at least one GPU
  const GpuCaps& g = *gpu->first;
  const float rel = gpu->second;
  if (vram_p < kVramSafe && !huge && (heavy || rel >= kGpuReliable)) {
    return make(PlacementTarget::vram,
                "Selected GPU " + g.id + " (reliability=" + fixed2(rel) + ") and VRAM pressure is safe", g.id);
  }
  if (huge && ram_p < kRamSafe) {
    return make(PlacementTarget::ram, "Tensor is huge and RAM pressure is acceptable; placing tensor in RAM");
  }
  if (ram_p < kRamSafe) {
    if (vram_p >= kVramSafe) return make(PlacementTarget::ram, "VRAM pressure is high; placing tensor in RAM");
    return make(PlacementTarget::ram, "Best GPU " + g.id + " is unreliable (reliability=" + fixed2(rel) +
                                          ") for a light tensor; placing tensor in RAM");
  }
  return make(PlacementTarget::cpu, "System memory pressure is high; falling back to CPU");
}

}  // namespace hybrid
