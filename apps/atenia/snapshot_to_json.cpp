// A snapshot as the JSON `atenia profile --json` prints; reading it back is snapshot_json.cpp.
#include <optional>
#include <type_traits>

#include "cli_support.hpp"
#include "snapshot_json.hpp"

namespace atenia::cli {

namespace {

template <typename T>
nlohmann::ordered_json opt_json(const std::optional<T>& v) {
  if (!v) return nullptr;
  if constexpr (std::is_same_v<T, float>) return float_json(*v);
  else return *v;
}

}  // namespace

nlohmann::ordered_json snapshot_to_json(const hybrid::GlobalHardwareSnapshot& s) {
  nlohmann::ordered_json gpus = nlohmann::ordered_json::array();
  for (const auto& g : s.gpus) {
    gpus.push_back({{"id", g.id}, {"backend", hybrid::to_string(g.backend)}, {"vram_total_bytes", g.vram_total_bytes},
                    {"vram_free_bytes", g.vram_free_bytes}, {"bandwidth_gbps_est", opt_json(g.bandwidth_gbps_est)},
                    {"compute_score_est", opt_json(g.compute_score_est)}, {"gflops_est", opt_json(g.gflops_est)},
                    {"h2d_gb_s_est", opt_json(g.h2d_gb_s_est)}, {"d2h_gb_s_est", opt_json(g.d2h_gb_s_est)},
                    {"launch_us_est", opt_json(g.launch_us_est)}});
  }
  nlohmann::ordered_json reliability = nlohmann::ordered_json::object();
  for (const auto& [id, r] : s.reliability_by_device) {
    reliability[id] = {{"ok_count", r.ok_count}, {"fail_count", r.fail_count}, {"last_error", opt_json(r.last_error)},
                       {"last_error_epoch_ms", opt_json(r.last_error_epoch_ms)}};
  }
  return {{"timestamp_epoch_ms", s.timestamp_epoch_ms},
          {"cpu",
           {{"physical_cores", s.cpu.physical_cores}, {"logical_cores", s.cpu.logical_cores}, {"simd", s.cpu.simd},
            {"gflops_est", opt_json(s.cpu.gflops_est)}, {"mem_gb_s_est", opt_json(s.cpu.mem_gb_s_est)}}},
          {"gpus", gpus},
          {"ram", {{"total_bytes", s.ram.total_bytes}, {"free_bytes", s.ram.free_bytes}}},
          {"ssd",
           {{"cache_dir", s.ssd.cache_dir}, {"read_mb_s_est", opt_json(s.ssd.read_mb_s_est)},
            {"write_mb_s_est", opt_json(s.ssd.write_mb_s_est)}, {"latency_ms_est", opt_json(s.ssd.latency_ms_est)},
            {"fs_total_bytes", opt_json(s.ssd.fs_total_bytes)}, {"fs_free_bytes", opt_json(s.ssd.fs_free_bytes)}}},
          {"reliability_by_device", reliability},
          {"pressure",
           {{"ram_pressure", opt_json(s.pressure.ram_pressure)}, {"vram_pressure", opt_json(s.pressure.vram_pressure)}}}};
}

}  // namespace atenia::cli
