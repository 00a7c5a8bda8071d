#include "hybrid/profiler/probe_gpu.hpp"

#include <algorithm>

namespace hybrid {

std::vector<GpuCaps> probe_gpus(const GpuDeviceSource* source) {
  if (source == nullptr || !source->is_available()) return {};
  std::vector<GpuCaps> gpus = source->devices();
  std::sort(gpus.begin(), gpus.end(), [](const GpuCaps& a, const GpuCaps& b) { return a.id < b.id; });
  return gpus;
}

std::optional<float> vram_pressure(const std::vector<GpuCaps>& gpus) {
  std::optional<float> worst;
  for (const GpuCaps& g : gpus) {
    if (g.vram_total_bytes == 0) continue;
    const std::uint64_t free = std::min(g.vram_free_bytes, g.vram_total_bytes);
    const auto p = static_cast<float>(1.0 - static_cast<double>(free) / static_cast<double>(g.vram_total_bytes));
    if (!worst || p > *worst) worst = p;
  }
  return worst;
}

}  // namespace hybrid
