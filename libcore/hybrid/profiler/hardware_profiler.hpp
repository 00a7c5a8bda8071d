#pragma once
// APX 13.0: the GlobalHardwareSnapshot of the real machine. A recorded snapshot (atenia's
// --snapshot) stands in for it in replay and tests.
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

// Probes CPU, RAM, SSD and GPUs. Fails only when the SSD cache directory is unusable or
// /proc/meminfo is unreadable. The snapshot carries no reliability counters: a probe has seen no
// device fail (they come from a recorded snapshot, snapshot_json).
[[nodiscard]] common::Result<GlobalHardwareSnapshot> probe_hardware(common::FileSystem& fs,
                                                                   const ProfilerOptions& options);

}  // namespace hybrid
