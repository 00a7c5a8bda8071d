#pragma once
// GPU probe: the suite has no GPU code below libgpu, so GPUs come only from a device source
// (the VRAM adapter) that reports them. No source, or one that is unavailable, means no GPU
// (not an error).
#include <optional>
#include <vector>

#include "hybrid/profiler/gpu_device_source.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

[[nodiscard]] std::vector<GpuCaps> probe_gpus(const GpuDeviceSource* source);

// Highest 1 - free/total over the GPUs with a known total; absent with no GPU.
[[nodiscard]] std::optional<float> vram_pressure(const std::vector<GpuCaps>& gpus);

}  // namespace hybrid
