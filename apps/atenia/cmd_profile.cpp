// atenia profile [--cache-dir D] [--json]: the live GlobalHardwareSnapshot (APX 13.0).
// The SSD probe measures the cache directory (created when absent): the one named, else
// atenia's own cache ($XDG_CACHE_HOME/atenia, else ~/.cache/atenia). The output names it.
#include <iostream>

#include "cli_common/path_option.hpp"
#include "cache_root.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "gpu/cuda_vram.hpp"
#include "hybrid/profiler/hardware_profiler.hpp"
#include "snapshot_json.hpp"

namespace atenia::cli {

namespace {

struct ProfileOptions {
  std::string cache_dir;
  bool json = false;
};

int run_profile(const ProfileOptions& o) {
  hybrid::ProfilerOptions options;
  options.ssd_cache_dir = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  // Real GPUs only: without a usable CUDA device this is null and the snapshot lists none.
  const std::unique_ptr<hybrid::VramAdapter> cuda = gpu::make_cuda_vram_adapter();
  options.vram = cuda.get();
  auto snap = hybrid::probe_hardware(common::real_file_system(), options);
  if (!snap) return report(snap.error());
  const auto j = snapshot_to_json(*snap);
  if (o.json) {
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::cout << "cpu: " << snap->cpu.physical_cores << " physical / " << snap->cpu.logical_cores << " logical cores";
  if (snap->cpu.gflops_est) std::cout << ", " << j["cpu"]["gflops_est"].dump() << " GFLOP/s";
  if (snap->cpu.mem_gb_s_est) std::cout << ", RAM " << j["cpu"]["mem_gb_s_est"].dump() << " GB/s";
  std::cout << "\n";
  std::cout << "ram: " << snap->ram.free_bytes << " free of " << snap->ram.total_bytes << " bytes\n";
  for (const auto& g : snap->gpus) {
    std::cout << "gpu: " << g.id << " " << hybrid::to_string(g.backend) << " " << g.vram_free_bytes << " free of "
              << g.vram_total_bytes << " VRAM bytes\n";
  }
  if (snap->gpus.empty()) std::cout << "gpu: none\n";
  std::cout << "ssd: cache " << snap->ssd.cache_dir;
  if (snap->ssd.fs_free_bytes) std::cout << ", " << *snap->ssd.fs_free_bytes << " bytes free";
  std::cout << "\n";
  std::cout << "pressure: ram=" << j["pressure"]["ram_pressure"].dump() << " vram=" << j["pressure"]["vram_pressure"].dump()
            << "\n";
  return kExitOk;
}

}  // namespace

Registration add_profile_command(CLI::App& app) {
  auto o = std::make_shared<ProfileOptions>();
  auto* sub = app.add_subcommand("profile", "Probe this machine (CPU, RAM, GPUs, SSD) and print the snapshot");
  cli_common::add_path_option(sub, "--cache-dir", o->cache_dir,
                  "SSD cache directory to measure (default: $XDG_CACHE_HOME/atenia, else ~/.cache/atenia)");
  sub->add_flag("--json", o->json, "print the snapshot as JSON");
  return {sub, [o] { return run_profile(*o); }};
}

}  // namespace atenia::cli
