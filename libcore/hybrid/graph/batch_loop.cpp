#include "hybrid/graph/batch_loop.hpp"

#include <fmt/format.h>

#include <set>

namespace hybrid {

std::vector<std::string> graph_tensor_ids(const ReconfigurableGraph& graph) {
  std::vector<std::string> ids;
  std::set<std::string, std::less<>> seen;
  for (const auto& node : graph.nodes()) {
    for (const auto& id : node.tensor_ids) {
      if (seen.insert(id).second) ids.push_back(id);
    }
  }
  return ids;
}

std::optional<MoveError> BatchLoopRunner::run_one_tick(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                       HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                                       bool gpu_available, std::uint64_t tick) {
  exec.record(fmt::format("TICK_START tick={}", tick));
  (void)graph_exec_.enqueue_graph(graph, exec, mem, snapshot, gpu_available);
  exec.run_to_completion();

  const std::vector<std::string> ids = graph_tensor_ids(graph);
  const OffloadPlan plan = offload_.plan_with_tick(snapshot, ids, mem, tick);
  exec.record(fmt::format("OFFLOAD_PLAN tick={} actions={} reason={}", tick, plan.actions.size(), plan.reason));
  // The seed's OFFLOAD_PLAN counts the actions; these lines name them (tensor, from, to).
  for (const OffloadAction& a : plan.actions) {
    const auto from = mem.get_tier(a.tensor_id);
    exec.record(fmt::format("OFFLOAD_MOVE tick={} tensor={} from={} to={}", tick, a.tensor_id,
                            from ? to_string(*from) : "none",
                            a.kind == OffloadAction::Kind::MoveToRam ? "ram" : "ssd"));
  }
  if (plan.actions.empty()) {
    exec.record(fmt::format("OFFLOAD_APPLY tick={} skipped", tick));
  } else if (auto applied = offload_.apply(snapshot, plan, mem); applied) {
    exec.record(fmt::format("OFFLOAD_APPLY tick={} ok", tick));
  } else {
    exec.record(fmt::format("OFFLOAD_APPLY tick={} error={}", tick, to_string(applied.error())));
    return applied.error();
  }
  exec.record(fmt::format("TICK_END tick={}", tick));
  return std::nullopt;
}

std::vector<std::string> BatchLoopRunner::run_ticks(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                    HybridMemoryManager& mem,
                                                    std::span<const MemorySnapshot> snapshots, bool gpu_available) {
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    if (run_one_tick(graph, exec, mem, snapshots[i], gpu_available, i)) break;
  }
  return exec.timeline();
}

BatchRunResult BatchLoopRunner::run_ticks_with_plans(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                     HybridMemoryManager& mem,
                                                     std::span<const MemorySnapshot> snapshots, bool gpu_available) {
  BatchRunResult out;
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    out.ticks.push_back({i, graph.plan_for_snapshot_with_mem(mem, snapshots[i], gpu_available)});
    if (auto err = run_one_tick(graph, exec, mem, snapshots[i], gpu_available, i)) {
      out.error = std::move(err);
      break;
    }
  }
  out.timeline = exec.timeline();
  return out;
}

}  // namespace hybrid
