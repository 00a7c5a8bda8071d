// atenia place --bytes N [--compute-cost C] [--snapshot F] [--json]: where a tensor of N bytes
// should live (APX 13.1, sized): VRAM, RAM or SSD, decided from N against each tier's free
// space and the pressure it would have after the tensor is placed, with the seed's
// thresholds; exit 1 when no tier has room. The snapshot is a saved one (`atenia profile
// --json`, `-` for stdin) or this machine's.
#include <charconv>
#include <cmath>
#include <iostream>

#include "cache_root.hpp"
#include "cli_common/count_option.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "gpu/cuda_vram.hpp"
#include "hybrid/placement/capacity_placement.hpp"
#include "hybrid/profiler/hardware_profiler.hpp"
#include "snapshot_json.hpp"

namespace atenia::cli {

namespace {

struct PlaceOptions {
  std::string bytes;
  std::optional<std::string> compute_cost;
  std::string snapshot;
  bool json = false;
};

common::Result<double> parse_cost(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || p != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    return common::Error::malformed("--compute-cost: expected a number, got \"" + s.substr(0, 64) + "\"");
  }
  if (ec == std::errc::result_out_of_range || !std::isfinite(v) || v < 0.0 || v > 3.4e38) {
    return common::Error::invalid_argument("--compute-cost must be a finite number >= 0");
  }
  return v;
}

nlohmann::ordered_json opt_u64(const std::optional<std::uint64_t>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json tier_json(const hybrid::TierCapacity& t) {
  return {{"free_bytes", opt_u64(t.free_bytes)},
          {"total_bytes", opt_u64(t.total_bytes)},
          {"pressure_after", t.pressure_after ? float_json(*t.pressure_after) : nullptr},
          {"fits", t.fits}};
}

int run_place(const PlaceOptions& o) {
  // Read strictly (cli_common::parse_count): a sign, a fraction or a value past 2^64 - 1 is exit 2.
  auto bytes = cli_common::parse_count("--bytes", o.bytes);
  if (!bytes) return report(bytes.error());
  std::optional<double> cost;
  if (o.compute_cost) {
    auto c = parse_cost(*o.compute_cost);
    if (!c) return report(c.error());
    cost = *c;
  }
  hybrid::GlobalHardwareSnapshot hw;
  if (!o.snapshot.empty()) {
    auto s = read_snapshot(o.snapshot);
    if (!s) return report(s.error());
    hw = std::move(s.value());
  } else {
    hybrid::ProfilerOptions options;
    options.ssd_cache_dir = default_cache_dir();
    const std::unique_ptr<hybrid::VramAdapter> cuda = gpu::make_cuda_vram_adapter();  // null without a GPU
    options.vram = cuda.get();
    options.measure_cpu_rates = false;  // placement reads sizes and pressures, not speeds
    auto s = hybrid::probe_hardware(common::real_file_system(), options);
    if (!s) return report(s.error());
    hw = std::move(s.value());
  }
  hybrid::TensorProfile t;
  t.num_elements = *bytes;
  t.element_size_bytes = 1;
  if (cost) t.estimated_compute_cost = static_cast<float>(*cost);
  const hybrid::CapacityDecision d = hybrid::decide_with_capacity(t, hw);
  const char* target = d.target ? hybrid::to_string(*d.target) : "none";
  if (o.json) {
    nlohmann::ordered_json out{{"bytes", *bytes},
                               {"target", target},
                               {"device_id", d.device_id ? nlohmann::ordered_json(*d.device_id) : nullptr},
                               {"reason", d.reason},
                               {"compute_heavy", d.compute_heavy},
                               {"vram", d.vram ? tier_json(*d.vram) : nlohmann::ordered_json(nullptr)},
                               {"ram", tier_json(d.ram)},
                               {"ssd", tier_json(d.ssd)}};
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "target=" << target << " device=" << d.device_id.value_or("none") << " reason=" << d.reason << "\n";
  }
  return d.target ? kExitOk : kExitFailure;
}

}  // namespace

Registration add_place_command(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  auto* sub = app.add_subcommand("place", "Decide where a tensor of a given size should live (VRAM, RAM or SSD)");
  sub->add_option("--bytes", o->bytes, "tensor size in bytes, 0 to 2^64-1")->required()->type_name("N");
  sub->add_option("--compute-cost", o->compute_cost,
                  "estimated compute cost (abstract units; >= 100 is compute-heavy)")->type_name("C");
  sub->add_option("--snapshot", o->snapshot,
                  "hardware snapshot JSON from `atenia profile --json` (- for stdin; default: probe this machine)");
  sub->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o] { return run_place(*o); }};
}

}  // namespace atenia::cli
