#include "hybrid/graph/batch_loop.hpp"

#include <set>

#include "hybrid/memory/move_error.hpp"

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

std::optional<common::Error> BatchLoopRunner::run_one_tick(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                           HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                                       bool gpu_available, std::uint64_t tick) {
  auto event = [tick](TimelineEventKind kind) {
    TimelineEvent e;
    e.kind = kind;
    e.tick = tick;
    return e;
  };
  exec.record(event(TimelineEventKind::tick_start));
  (void)graph_exec_.enqueue_graph(graph, exec, mem, snapshot, gpu_available);
  exec.run_to_completion();

  const std::vector<std::string> ids = graph_tensor_ids(graph);
  const OffloadPlan plan = offload_.plan_with_tick(snapshot, ids, mem, tick);
  TimelineEvent planned = event(TimelineEventKind::offload_plan);
  planned.actions = plan.actions.size();
  planned.reason = plan.reason;
  exec.record(std::move(planned));
  // The seed's OFFLOAD_PLAN counts the actions; these events name them (tensor, from, to).
  for (const OffloadAction& a : plan.actions) {
    const auto from = mem.get_tier(a.tensor_id);
    TimelineEvent move = event(TimelineEventKind::offload_move);
    move.tensor = a.tensor_id;
    move.from = from ? to_string(*from) : "none";
    move.to = a.kind == OffloadAction::Kind::move_to_ram ? "ram" : "ssd";
    exec.record(std::move(move));
  }
  TimelineEvent applied_event = event(TimelineEventKind::offload_apply);
  if (plan.actions.empty()) {
    applied_event.outcome = "skipped";
    exec.record(std::move(applied_event));
  } else if (auto applied = offload_.apply(snapshot, plan, mem); applied) {
    applied_event.outcome = "ok";
    exec.record(std::move(applied_event));
  } else {
    applied_event.outcome = "error=" + move_error_text(applied.error());
    exec.record(std::move(applied_event));
    return applied.error();
  }
  exec.record(event(TimelineEventKind::tick_end));
  return std::nullopt;
}

BatchRunResult BatchLoopRunner::run_ticks_with_plans(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                     HybridMemoryManager& mem,
                                                     std::span<const MemorySnapshot> snapshots, bool gpu_available) {
  BatchRunResult out;
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    out.ticks.push_back({i, graph.plan_for_snapshot(mem, snapshots[i], gpu_available)});
    if (auto err = run_one_tick(graph, exec, mem, snapshots[i], gpu_available, i)) {
      out.error = std::move(err);
      break;
    }
  }
  out.events = exec.events();
  out.timeline = exec.timeline();
  return out;
}

}  // namespace hybrid
