// atenia simulate SCENARIO.json [--cache-dir D] [--timeline-out F] [--plans-out F] [--trace-out F] [--json]
// Runs the batch loop of APX 13.6.3 on the scenario with real byte moves (RAM buffers, SSD
// blobs and the persistent cache under the cache directory; VRAM is the in-process stand-in
// when the scenario says a GPU is available). Stdout: the timeline, then the per-tick plans
// (TICK_PLAN / NODE_PLAN lines); with --json, the plans as JSONL instead. Output files are
// written atomically. An offload failure ends the run: outputs up to it, then exit 2.
#include <iostream>

#include "cache_root.hpp"
#include "chrome_trace.hpp"
#include "commands.hpp"
#include "hybrid/planner/execution_target.hpp"
#include "scenario_json.hpp"

namespace atenia::cli {

namespace {

struct SimulateOptions {
  std::string scenario;
  std::string cache_dir;
  std::string timeline_out;
  std::string plans_out;
  std::string trace_out;
  bool json = false;
};

std::string plans_jsonl(const std::vector<hybrid::TickResult>& ticks) {
  std::string out;
  for (const auto& t : ticks) {
    nlohmann::ordered_json placements = nlohmann::ordered_json::array();
    for (const auto& p : t.plan.placements) {
      placements.push_back({{"node", p.node_id}, {"target", hybrid::to_string(p.target)}, {"reason", p.reason}});
    }
    out += nlohmann::ordered_json{{"tick", t.tick}, {"summary", t.plan.snapshot_summary}, {"placements", placements}}
               .dump() +
           "\n";
  }
  return out;
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
  auto scenario = read_scenario(o.scenario);
  if (!scenario) return report(scenario.error());
  ScratchDir scratch;
  const CacheRoot root{o.cache_dir.empty() ? scratch.path() : o.cache_dir};
  if (auto s = ensure_cache_root(root); !s) return report(s.error());
  auto mem = make_manager(root, root.ssd(), scenario->gpu_available);
  auto result = hybrid::run_batch_scenario(*scenario, mem);
  if (!result) return report(result.error());

  const std::string timeline = lines(result->timeline);
  const std::string plans_text = lines(hybrid::describe_tick_plans(result->ticks));
  const std::string plans_json = plans_jsonl(result->ticks);
  for (auto [path, text] : {std::pair{&o.timeline_out, &timeline}, std::pair{&o.plans_out, &plans_json}}) {
    if (path->empty()) continue;
    if (auto s = write_output(*path, *text); !s) return report(s.error());
  }
  if (!o.trace_out.empty()) {
    if (auto s = write_output(o.trace_out, chrome_trace_json(result->timeline)); !s) return report(s.error());
  }
  if (auto s = write_output("-", o.json ? plans_json : timeline + plans_text); !s) return report(s.error());
  if (result->error) {
    return report(common::Error::io("offload failed at tick " + std::to_string(result->ticks.size() - 1) + ": " +
                                        hybrid::to_string(*result->error),
                                    common::Location{o.scenario, 0, {}}));
  }
  return kExitOk;
}

}  // namespace

Registration add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* sub = app.add_subcommand("simulate", "Run a batch-loop scenario (graph + offload per tick) with real byte moves");
  sub->add_option("scenario", o->scenario, "scenario JSON file (- for stdin)")->required();
  sub->add_option("--cache-dir", o->cache_dir, "cache root for SSD blobs and the persistent cache (default: a temporary directory)");
  sub->add_option("--timeline-out", o->timeline_out, "write the timeline lines to this file");
  sub->add_option("--plans-out", o->plans_out, "write the per-tick plans as JSONL to this file");
  sub->add_option("--trace-out", o->trace_out, "write the timeline as Chrome trace-event JSON (Perfetto)");
  sub->add_flag("--json", o->json, "print the per-tick plans as JSONL instead of text");
  return {sub, [o] { return run_simulate(*o); }};
}

}  // namespace atenia::cli
