#pragma once
// APX 13.0: canonical description of the machine the engine runs on (CPU, GPUs, RAM, SSD),
// per-device reliability counters and memory pressure. Plain values; probes fill them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hybrid {

enum class BackendKind : std::uint8_t { cpu, cuda, rocm, metal, one_api, vulkan, unknown };

[[nodiscard]] const char* to_string(BackendKind kind);  // "cpu", "cuda", ... "unknown"

struct CpuCaps {
  std::uint32_t physical_cores = 0;
  std::uint32_t logical_cores = 0;
  std::vector<std::string> simd;  // lowercase feature names, sorted: "avx2", "fma", "sse4_2"...
  // Rates the simulator's kernel model reads (absent: unknown, a documented default is used).
  std::optional<float> gflops_est;     // sustained arithmetic, GFLOP/s (1e9 flop/s)
  std::optional<float> mem_gb_s_est;   // RAM bandwidth, GB/s (1e9 B/s)
};

struct GpuCaps {
  std::string id;  // "gpu0"
  BackendKind backend = BackendKind::unknown;
  std::uint64_t vram_total_bytes = 0;
  std::uint64_t vram_free_bytes = 0;
  std::optional<float> bandwidth_gbps_est;
  std::optional<float> compute_score_est;  // abstract units; higher is faster
  // Rates the simulator's kernel and transfer models read (absent: unknown).
  std::optional<float> gflops_est;     // sustained arithmetic, GFLOP/s
  std::optional<float> h2d_gb_s_est;   // RAM -> VRAM copies, GB/s
  std::optional<float> d2h_gb_s_est;   // VRAM -> RAM copies, GB/s
  std::optional<float> launch_us_est;  // per-kernel launch latency, microseconds
};

struct RamCaps {
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;  // available to new allocations (MemAvailable)
};

struct SsdCaps {
  std::string cache_dir;
  std::optional<float> read_mb_s_est;
  std::optional<float> write_mb_s_est;
  std::optional<float> latency_ms_est;
  std::optional<std::uint64_t> fs_total_bytes;  // statvfs of cache_dir
  std::optional<std::uint64_t> fs_free_bytes;   // available to unprivileged users
};

struct ReliabilityStats {
  std::uint64_t ok_count = 0;
  std::uint64_t fail_count = 0;
  std::optional<std::string> last_error;
  std::optional<std::uint64_t> last_error_epoch_ms;
};

// Pressure in [0, 1] (1 = full); absent when unknown.
struct PressureSnapshot {
  std::optional<float> ram_pressure;
  std::optional<float> vram_pressure;
};

struct GlobalHardwareSnapshot {
  std::uint64_t timestamp_epoch_ms = 0;
  CpuCaps cpu;
  std::vector<GpuCaps> gpus;
  RamCaps ram;
  SsdCaps ssd;
  std::map<std::string, ReliabilityStats> reliability_by_device;  // keyed by device id ("gpu0")
  PressureSnapshot pressure;
};

}  // namespace hybrid
