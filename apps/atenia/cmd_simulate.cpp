// atenia simulate SCENARIO.json [--snapshot F | --profile] [--cache-dir D] [--timeline-out F]
//                 [--plans-out F] [--trace-out F] [--json]
// Runs the batch loop of APX 13.6.3 on the scenario with real byte moves (RAM buffers, SSD
// blobs and the persistent cache under the cache directory; VRAM is the in-process stand-in
// when the scenario says a GPU is available). Stdout: the timeline, then the per-tick plans
// (TICK_PLAN / NODE_PLAN lines), the rates and modelled task times (RATE / TIME lines), and
// the final tiers; with --json, the same as JSONL records. Durations come from the hardware
// snapshot's rates (sim_rates.hpp, sim_timing.hpp). Output files are written atomically. An
// offload failure ends the run: outputs up to it, then exit 2.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <tuple>

#include "cli_common/path_option.hpp"
#include "cache_root.hpp"
#include "chrome_trace.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "gpu/cuda_vram.hpp"
#include "hybrid/memory/move_error.hpp"
#include "hybrid/planner/execution_target.hpp"
#include "hybrid/profiler/hardware_profiler.hpp"
#include "scenario_json.hpp"
#include "sim_rates.hpp"
#include "sim_timing.hpp"
#include "snapshot_json.hpp"

namespace atenia::cli {

namespace {

struct SimulateOptions {
  std::string scenario;
  std::string cache_dir;
  std::string timeline_out;
  std::string plans_out;
  std::string trace_out;
  std::string snapshot;
  bool profile = false;
  bool json = false;
};

std::string plans_jsonl(const std::vector<hybrid::TickResult>& ticks, const std::vector<std::string>& names) {
  std::string out;
  for (const auto& t : ticks) {
    nlohmann::ordered_json placements = nlohmann::ordered_json::array();
    for (const auto& p : t.plan.placements) {
      placements.push_back({{"node", p.node_id},
                            {"name", p.node_id < names.size() ? nlohmann::ordered_json(names[p.node_id]) : nullptr},
                            {"target", hybrid::to_string(p.target)},
                            {"reason", p.reason}});
    }
    out += nlohmann::ordered_json{{"tick", t.tick}, {"summary", t.plan.snapshot_summary}, {"placements", placements}}
               .dump() +
           "\n";
  }
  return out;
}

// Where each tensor ended and how many bytes crossed each tier boundary: the graph's moves (run
// transfer events) and the applied offload moves (offload move events of a tick whose apply was
// ok), each counted with the tensor's size. Read from the events' fields, never their text.
struct FinalState {
  std::vector<std::tuple<std::string, std::string, std::uint64_t>> tensors;  // id, tier, bytes
  std::map<std::pair<std::string, std::string>, std::uint64_t> moved;          // (from, to) -> bytes
};

FinalState final_state(const hybrid::BatchScenario& sc, const hybrid::BatchRunResult& r, hybrid::HybridMemoryManager& mem) {
  FinalState f;
  std::map<std::string, std::uint64_t> size;
  for (const auto& t : sc.tensors) {
    size[t.id] = t.bytes;
    const auto tier = mem.get_tier(t.id);
    f.tensors.emplace_back(t.id, tier ? hybrid::to_string(*tier) : "none", t.bytes);
  }
  std::vector<std::pair<std::pair<std::string, std::string>, std::uint64_t>> pending;
  for (const hybrid::TimelineEvent& e : r.events) {
    if (e.kind == hybrid::TimelineEventKind::run && e.task.category == hybrid::TaskCategory::transfer &&
        !e.task.tensor.empty()) {
      f.moved[{e.task.from, e.task.to}] += size[e.task.tensor];
    } else if (e.kind == hybrid::TimelineEventKind::offload_move) {
      pending.push_back({{e.from, e.to}, size[e.tensor]});
    } else if (e.kind == hybrid::TimelineEventKind::offload_apply) {
      if (e.outcome == "ok") {
        for (const auto& [dir, n] : pending) f.moved[dir] += n;
      }
      pending.clear();
    }
  }

  return f;
}

std::string final_text(const FinalState& f) {
  std::string out;
  for (const auto& [id, tier, bytes] : f.tensors) {
    out += "FINAL tensor=" + id + " tier=" + tier + " bytes=" + std::to_string(bytes) + "\n";
  }
  for (const auto& [dir, bytes] : f.moved) {
    out += "MOVED " + dir.first + "->" + dir.second + " bytes=" + std::to_string(bytes) + "\n";
  }
  return out;
}

std::string final_jsonl(const FinalState& f) {
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array(), moved = nlohmann::ordered_json::array();
  for (const auto& [id, tier, bytes] : f.tensors) tensors.push_back({{"id", id}, {"tier", tier}, {"bytes", bytes}});
  for (const auto& [dir, bytes] : f.moved) moved.push_back({{"from", dir.first}, {"to", dir.second}, {"bytes", bytes}});
  return nlohmann::ordered_json{{"final_tiers", tensors}, {"bytes_moved", moved}}.dump() + "\n";
}

std::string rate_value(const SimRate& r) {
  return r.unit == "us" ? fmt::format("{:.3f}", r.value) : fmt::format("{:.0f}", r.value);
}

// RATE lines (each rate, its value and where it came from), one TIME line per modelled task,
// TIME_TOTAL. Microseconds to the nanosecond; fmt formats without the locale.
std::string timing_text(const SimRates& rates, const SimTiming& timing) {
  std::string out;
  for (const SimRate* r : rates.all()) {
    out += fmt::format("RATE name={} value={} unit={} source={} field={}\n", r->name, rate_value(*r), r->unit, r->source,
                       r->field);
  }
  for (const auto& t : timing.tasks) {
    out += fmt::format("TIME tick={} stream={} device={} task={} flops={} bytes={} rate={} start_us={:.3f} dur_us={:.3f}\n",
                       t.tick, t.stream.empty() ? "-" : t.stream, t.device, t.task, t.flops, t.bytes, t.rate, t.start_us,
                       t.dur_us);
  }
  out += fmt::format("TIME_TOTAL us={:.3f}\n", timing.total_us);
  return out;
}

std::string timing_jsonl(const SimRates& rates, const SimTiming& timing) {
  nlohmann::ordered_json rs = nlohmann::ordered_json::array(), ts = nlohmann::ordered_json::array();
  for (const SimRate* r : rates.all()) {
    rs.push_back({{"name", r->name}, {"value", r->value}, {"unit", r->unit}, {"source", r->source}, {"field", r->field}});
  }
  for (const auto& t : timing.tasks) {
    ts.push_back({{"tick", t.tick}, {"stream", t.stream.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t.stream)},
                  {"device", t.device}, {"task", t.task}, {"flops", t.flops}, {"bytes", t.bytes}, {"rate", t.rate},
                  {"start_us", t.start_us}, {"dur_us", t.dur_us}});
  }
  return nlohmann::ordered_json{{"rates", rs}, {"tasks", ts}, {"total_us", timing.total_us}}.dump() + "\n";
}

// This machine, probed now as `atenia profile` does; the SSD measured where this run spills.
common::Result<hybrid::GlobalHardwareSnapshot> probe_now(const CacheRoot& root) {
  hybrid::ProfilerOptions options;
  options.ssd_cache_dir = root.ssd();
  const std::unique_ptr<hybrid::VramAdapter> cuda = gpu::make_cuda_vram_adapter();
  options.vram = cuda.get();
  return hybrid::probe_hardware(common::real_file_system(), options);
}

std::string lines(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& l : v) out += l + "\n";
  return out;
}

int run_simulate(const SimulateOptions& o) {
  for (auto [name, value] : {std::pair{"--timeline-out", &o.timeline_out}, std::pair{"--plans-out", &o.plans_out},
                             std::pair{"--trace-out", &o.trace_out}}) {
    if (*value == "-") {
      return report(common::Error::malformed(std::string(name) +
                                             " -: stdout already carries the timeline and plans; name a file"));
    }
  }
  if (o.scenario == "-" && o.snapshot == "-") {
    return report(common::Error::malformed("scenario and --snapshot cannot both be read from stdin"));
  }
  auto scenario = read_scenario(o.scenario);
  if (!scenario) return report(scenario.error());
  ScratchDir scratch;
  const CacheRoot root{o.cache_dir.empty() ? scratch.path() : o.cache_dir};
  std::optional<hybrid::GlobalHardwareSnapshot> snap;
  if (!o.snapshot.empty()) {  // a bad snapshot is refused before anything is written
    auto s = read_snapshot(o.snapshot);
    if (!s) return report(s.error());
    snap = std::move(*s);
  }
  if (auto s = ensure_cache_root(root); !s) return report(s.error());
  if (o.profile) {
    auto s = probe_now(root);
    if (!s) return report(s.error());
    snap = std::move(*s);
    // The profile describes this machine: with no GPU in it, no work can be timed on a GPU here,
    // whatever the scenario assumes; say so instead of modelling a GPU from default rates.
    if (snap->gpus.empty() && scenario->gpu_available) {
      std::cerr << "atenia: note: --profile found no GPU on this machine; the scenario's GPU work is modelled on "
                   "the CPU (gpu_available taken as false)\n";
      scenario->gpu_available = false;
    }
  }
  const SimRates rates = resolve_rates(snap, o.profile ? "profiled" : "snapshot");
  auto mem = make_manager(root, root.ssd(), scenario->gpu_available);
  auto result = hybrid::run_batch_scenario(*scenario, mem);
  if (!result) return report(result.error());

  const std::string timeline = lines(result->timeline);
  std::vector<std::string> node_names;
  for (const auto& n : scenario->nodes) node_names.push_back(n.kernel.name);
  const std::string plans_text = lines(hybrid::describe_tick_plans(result->ticks, node_names));
  const FinalState fin = final_state(*scenario, *result, mem);
  const SimTiming timing = model_timing(*scenario, result->events, rates);
  const std::string plans_json = plans_jsonl(result->ticks, node_names);
  for (auto [path, text] : {std::pair{&o.timeline_out, &timeline}, std::pair{&o.plans_out, &plans_json}}) {
    if (path->empty()) continue;
    if (auto s = write_output(*path, *text); !s) return report(s.error());
  }
  if (!o.trace_out.empty()) {
    if (auto s = write_output(o.trace_out, chrome_trace_json(*scenario, timing)); !s) return report(s.error());
  }
  const std::string out = o.json ? plans_json + timing_jsonl(rates, timing) + final_jsonl(fin)
                                 : timeline + plans_text + timing_text(rates, timing) + final_text(fin);
  if (auto s = write_output("-", out); !s) {
    return report(s.error());
  }
  if (result->error) {
    return report(common::Error::io("offload failed at tick " + std::to_string(result->ticks.size() - 1) + ": " +
                                        hybrid::move_error_text(*result->error),
                                    common::Location{o.scenario, 0, {}}));
  }
  return kExitOk;
}

}  // namespace

Registration add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* sub = app.add_subcommand("simulate", "Run a batch-loop scenario (graph + offload per tick) with real byte moves");
  sub->add_option("scenario", o->scenario, "scenario JSON file (- for stdin)")->required();
  cli_common::add_path_option(sub, "--cache-dir", o->cache_dir, "cache root for SSD blobs and the persistent cache (default: a temporary directory)");
  cli_common::add_path_option(sub, "--timeline-out", o->timeline_out, "write the timeline lines to this file");
  cli_common::add_path_option(sub, "--plans-out", o->plans_out, "write the per-tick plans as JSONL to this file");
  cli_common::add_path_option(sub, "--trace-out", o->trace_out, "write the timeline as Chrome trace-event JSON (Perfetto)");
  auto* snap = sub->add_option("--snapshot", o->snapshot,
                               "hardware snapshot JSON from `atenia profile --json` whose rates time the tasks (- for stdin)");
  sub->add_flag("--profile", o->profile, "time the tasks with rates probed from this machine now")->excludes(snap);
  sub->add_flag("--json", o->json, "print the plans, rates and task times and final tiers as JSONL instead of text");
  return {sub, [o] { return run_simulate(*o); }};
}

}  // namespace atenia::cli
