#pragma once
// APX 13.0: owner of the GlobalHardwareSnapshot. probe() reads the real machine; a snapshot can
// also be injected (tests, replay). Reliability counters are recorded by callers per device.
#include <cstdint>
#include <optional>
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/profiler/gpu_device_source.hpp"
#include "hybrid/profiler/hardware_types.hpp"
#include "hybrid/profiler/probe_ssd.hpp"

namespace hybrid {

struct ProfilerOptions {
  std::string ssd_cache_dir = ".atenia_cache";
  SsdProbeOptions ssd;
  const GpuDeviceSource* vram = nullptr;         // GPUs come only from here (the VRAM adapter)
  bool measure_cpu_rates = true;                 // time a BLAS product and a RAM copy (~50 ms)
  std::optional<std::uint64_t> timestamp_epoch_ms;  // absent: the system clock
};

class GlobalHardwareProfiler {
 public:
  GlobalHardwareProfiler() = default;
  explicit GlobalHardwareProfiler(GlobalHardwareSnapshot snapshot) : snapshot_(std::move(snapshot)) {}

  // Probes CPU, RAM, SSD and GPUs. Fails only when the SSD cache directory is unusable or
  // /proc/meminfo is unreadable; reliability counters survive a re-probe.
  [[nodiscard]] common::Status refresh(common::FileSystem& fs, const ProfilerOptions& options);

  [[nodiscard]] const GlobalHardwareSnapshot& snapshot() const { return snapshot_; }

  void record_success(const std::string& device_id);
  void record_failure(const std::string& device_id, std::string error, std::uint64_t epoch_ms);

 private:
  GlobalHardwareSnapshot snapshot_;
};

// One-shot convenience: a fresh profiler's refreshed snapshot.
[[nodiscard]] common::Result<GlobalHardwareSnapshot> probe_hardware(common::FileSystem& fs,
                                                                   const ProfilerOptions& options);

}  // namespace hybrid
