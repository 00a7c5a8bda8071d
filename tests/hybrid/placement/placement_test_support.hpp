#pragma once
// Synthetic hardware snapshots for placement tests (no probing).
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hybrid/placement/placement_types.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace placement_test {

inline hybrid::GpuCaps make_gpu(const std::string& id, float compute_score_est) {
  hybrid::GpuCaps g;
  g.id = id;
  g.backend = hybrid::BackendKind::unknown;
  g.vram_total_bytes = 8ull << 30;
  g.vram_free_bytes = 4ull << 30;
  g.compute_score_est = compute_score_est;
  return g;
}

inline hybrid::ReliabilityStats make_stats(std::uint64_t ok, std::uint64_t fail, bool has_recent_error) {
  hybrid::ReliabilityStats s;
  s.ok_count = ok;
  s.fail_count = fail;
  if (has_recent_error) {
    s.last_error = "synthetic failure";
    s.last_error_epoch_ms = 1000;
  }
  return s;
}

inline hybrid::GlobalHardwareSnapshot base_snapshot(std::optional<float> vram_pressure, std::optional<float> ram_pressure) {
  hybrid::GlobalHardwareSnapshot hw;
  hw.cpu.physical_cores = 4;
  hw.cpu.logical_cores = 8;
  hw.ram.total_bytes = 16ull << 30;
  hw.ram.free_bytes = 8ull << 30;
  hw.ssd.cache_dir = "/tmp/unused";
  hw.pressure.vram_pressure = vram_pressure;
  hw.pressure.ram_pressure = ram_pressure;
  return hw;
}

inline hybrid::GlobalHardwareSnapshot mock_hw_snapshot(bool has_gpu, std::optional<float> vram_pressure,
                                                       std::optional<float> ram_pressure) {
  auto hw = base_snapshot(vram_pressure, ram_pressure);
  if (has_gpu) hw.gpus.push_back(make_gpu("gpu0", 50.0F));
  return hw;
}

inline hybrid::TensorProfile make_tensor(std::uint64_t num_elements, std::uint32_t element_size,
                                         std::optional<float> compute_cost) {
  return hybrid::TensorProfile{num_elements, element_size, compute_cost};
}

// Elements of 4 bytes that make a tensor just above kTensorHugeBytes.
inline std::uint64_t huge_tensor_elements_for_4b() { return (512ull * 1024 * 1024) / 4 + 1; }

}  // namespace placement_test
