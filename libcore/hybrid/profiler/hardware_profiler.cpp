#include "hybrid/profiler/hardware_profiler.hpp"

#include <chrono>

#include "hybrid/profiler/probe_cpu.hpp"
#include "hybrid/profiler/probe_cpu_rates.hpp"
#include "hybrid/profiler/probe_gpu.hpp"
#include "hybrid/profiler/probe_ram.hpp"

namespace hybrid {

common::Result<GlobalHardwareSnapshot> probe_hardware(common::FileSystem& fs, const ProfilerOptions& options) {
  auto ram = probe_ram(fs);
  if (!ram) return ram.error();
  auto ssd = probe_ssd(fs, options.ssd_cache_dir, options.ssd);
  if (!ssd) return ssd.error();
  GlobalHardwareSnapshot next;
  next.timestamp_epoch_ms =
      options.timestamp_epoch_ms.value_or(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                                         std::chrono::system_clock::now().time_since_epoch())
                                                                         .count()));
  next.cpu = probe_cpu(fs);
  if (options.measure_cpu_rates) {
    const CpuRates rates = measure_cpu_rates();
    next.cpu.gflops_est = rates.gflops;
    next.cpu.mem_gb_s_est = rates.mem_gb_s;
  }
  next.ram = *ram;
  next.ssd = std::move(ssd).value();
  next.gpus = probe_gpus(options.vram);
  next.pressure.ram_pressure = ram_pressure(next.ram);
  next.pressure.vram_pressure = vram_pressure(next.gpus);
  return next;
}

}  // namespace hybrid
