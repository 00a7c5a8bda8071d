#include "sim_rates.hpp"

#include <charconv>
#include <cmath>

namespace atenia::cli {

namespace {

// A float field as the decimal it was written as (12.3F is 12.3, not 12.30000019), so a rate
// of "12.3" GB/s models exactly 12.3e9 B/s.
double as_written(float v) {
  char buf[32];
  const auto w = std::to_chars(buf, buf + sizeof buf, v);
  double d = v;
  std::from_chars(buf, w.ptr, d);
  return d;
}

SimRate pick(std::string name, const std::optional<float>& v, double scale, double fallback, std::string unit,
             std::string field, const std::string& origin) {
  SimRate r{std::move(name), fallback * scale, std::move(unit), "default", std::move(field)};
  // read_snapshot and the probes give finite, in-domain values; anything else is not a measurement.
  if (v && std::isfinite(*v) && (*v > 0 || (*v == 0 && r.unit == "us"))) {
    r.value = as_written(*v) * scale;
    r.source = origin;
  }
  return r;
}

}  // namespace

SimRates resolve_rates(const std::optional<hybrid::GlobalHardwareSnapshot>& snapshot, const std::string& origin) {
  const hybrid::GlobalHardwareSnapshot empty;
  const auto& s = snapshot ? *snapshot : empty;
  const hybrid::GpuCaps no_gpu;
  const auto& g = s.gpus.empty() ? no_gpu : s.gpus.front();
  SimRates r;
  r.cpu_flops = pick("cpu_flops", s.cpu.gflops_est, 1e9, kDefaultCpuGflops, "flop/s", "/cpu/gflops_est", origin);
  r.cpu_mem = pick("cpu_mem", s.cpu.mem_gb_s_est, 1e9, kDefaultCpuMemGbS, "B/s", "/cpu/mem_gb_s_est", origin);
  r.gpu_flops = pick("gpu_flops", g.gflops_est, 1e9, kDefaultGpuGflops, "flop/s", "/gpus/0/gflops_est", origin);
  r.gpu_mem = pick("gpu_mem", g.bandwidth_gbps_est, 1e9, kDefaultGpuMemGbS, "B/s", "/gpus/0/bandwidth_gbps_est", origin);
  r.ram_to_vram = pick("ram_to_vram", g.h2d_gb_s_est, 1e9, kDefaultPcieGbS, "B/s", "/gpus/0/h2d_gb_s_est", origin);
  r.vram_to_ram = pick("vram_to_ram", g.d2h_gb_s_est, 1e9, kDefaultPcieGbS, "B/s", "/gpus/0/d2h_gb_s_est", origin);
  r.ram_to_ssd = pick("ram_to_ssd", s.ssd.write_mb_s_est, 1e6, kDefaultSsdMbS, "B/s", "/ssd/write_mb_s_est", origin);
  r.ssd_to_ram = pick("ssd_to_ram", s.ssd.read_mb_s_est, 1e6, kDefaultSsdMbS, "B/s", "/ssd/read_mb_s_est", origin);
  r.ssd_latency = pick("ssd_latency", s.ssd.latency_ms_est, 1e3, kDefaultSsdLatencyMs, "us", "/ssd/latency_ms_est", origin);
  r.gpu_launch = pick("gpu_launch", g.launch_us_est, 1, kDefaultLaunchUs, "us", "/gpus/0/launch_us_est", origin);
  return r;
}

}  // namespace atenia::cli
