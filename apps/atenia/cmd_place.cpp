// atenia place --bytes N [--compute-cost C] [--snapshot F] [--json]: where a tensor of N bytes
// should live (APX 13.1), against a saved snapshot (`atenia profile --json`) or this machine.
#include <cmath>
#include <iostream>

#include "commands.hpp"
#include "common/file_system.hpp"
#include "hybrid/placement/tensor_placement.hpp"
#include "hybrid/profiler/hardware_profiler.hpp"
#include "snapshot_json.hpp"

namespace atenia::cli {

namespace {

struct PlaceOptions {
  std::uint64_t bytes = 0;
  std::optional<double> compute_cost;
  std::string snapshot;
  bool json = false;
};

int run_place(const PlaceOptions& o) {
  if (o.compute_cost && !(std::isfinite(*o.compute_cost) && *o.compute_cost >= 0.0)) {
    return report(common::Error::invalid_argument("--compute-cost must be a finite number >= 0"));
  }
  hybrid::GlobalHardwareSnapshot hw;
  if (!o.snapshot.empty()) {
    auto s = read_snapshot(o.snapshot);
    if (!s) return report(s.error());
    hw = std::move(s.value());
  } else {
    auto s = hybrid::probe_hardware(common::real_file_system(), hybrid::ProfilerOptions{});
    if (!s) return report(s.error());
    hw = std::move(s.value());
  }
  hybrid::TensorProfile t;
  t.num_elements = o.bytes;
  t.element_size_bytes = 1;
  if (o.compute_cost) t.estimated_compute_cost = static_cast<float>(*o.compute_cost);
  const auto d = hybrid::TensorPlacementEngine::decide(t, hw);
  if (o.json) {
    nlohmann::ordered_json out{{"bytes", o.bytes},
                               {"target", hybrid::to_string(d.target)},
                               {"device_id", d.device_id ? nlohmann::ordered_json(*d.device_id) : nullptr},
                               {"reason", d.reason}};
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "target=" << hybrid::to_string(d.target) << " device=" << d.device_id.value_or("none")
              << " reason=" << d.reason << "\n";
  }
  return kExitOk;
}

}  // namespace

Registration add_place_command(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  auto* sub = app.add_subcommand("place", "Decide where a tensor should live");
  sub->add_option("--bytes", o->bytes, "tensor size in bytes")->required();
  sub->add_option("--compute-cost", o->compute_cost, "estimated compute cost (abstract units)");
  sub->add_option("--snapshot", o->snapshot, "hardware snapshot JSON (from `atenia profile --json`)");
  sub->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o] { return run_place(*o); }};
}

}  // namespace atenia::cli
