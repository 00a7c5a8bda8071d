#pragma once
// The rates `atenia simulate` models durations with, each resolved from the hardware snapshot
// (a saved `profile --json` file, or the live machine probed for this run) and, where the
// snapshot has no value, from a documented default. Every rate says where it came from, so a
// timeline is never silently built on a constant. The GPU figures are those of the snapshot's
// first GPU (/gpus/0).
#include <optional>
#include <string>
#include <vector>

#include "hybrid/profiler/hardware_types.hpp"

namespace atenia::cli {

struct SimRate {
  std::string name;    // "cpu_flops", "ram_to_vram", ...
  double value = 0;    // per second (flop/s, B/s); latencies in microseconds
  std::string unit;    // "flop/s", "B/s" or "us"
  std::string source;  // "profiled", "snapshot" or "default"
  std::string field;   // the snapshot field (JSON pointer) that holds it, or would
};

struct SimRates {
  SimRate cpu_flops, cpu_mem, gpu_flops, gpu_mem, ram_to_vram, vram_to_ram, ram_to_ssd, ssd_to_ram, ssd_latency,
      gpu_launch;
  [[nodiscard]] std::vector<const SimRate*> all() const {
    return {&cpu_flops,   &cpu_mem,    &gpu_flops,  &gpu_mem,     &ram_to_vram,
            &vram_to_ram, &ram_to_ssd, &ssd_to_ram, &ssd_latency, &gpu_launch};
  }
};

// The documented defaults (atenia(1), "simulate").
inline constexpr double kDefaultCpuGflops = 100;      // 100 GFLOP/s
inline constexpr double kDefaultCpuMemGbS = 20;       // 20 GB/s
inline constexpr double kDefaultGpuGflops = 10000;    // 10 TFLOP/s
inline constexpr double kDefaultGpuMemGbS = 1000;     // 1 TB/s
inline constexpr double kDefaultPcieGbS = 16;         // RAM<->VRAM, each direction
inline constexpr double kDefaultSsdMbS = 2000;        // RAM<->SSD, each direction
inline constexpr double kDefaultSsdLatencyMs = 0;     // per SSD transfer
inline constexpr double kDefaultLaunchUs = 0;         // per GPU kernel

// `snapshot` absent: every rate is its default. `origin` names where a present snapshot came
// from ("snapshot" for a file, "profiled" for this run's probe). The snapshot's values were
// range-checked when it was read (read_snapshot, or the probe's own measurements).
[[nodiscard]] SimRates resolve_rates(const std::optional<hybrid::GlobalHardwareSnapshot>& snapshot,
                                     const std::string& origin);

}  // namespace atenia::cli
