#include "hybrid/graph/reconfigurable_graph.hpp"

#include <fmt/format.h>

#include <utility>

#include "hybrid/planner/execution_planner.hpp"

namespace hybrid {

std::string snapshot_pressure_summary(const MemorySnapshot& snapshot) {
  return fmt::format("Snapshot pressures: vram={:.4f}, ram={:.4f}", snapshot.vram.pressure.value_or(0.0F),
                     snapshot.ram.pressure.value_or(0.0F));
}

NodeId ReconfigurableGraph::add_node(KernelProfile kernel, std::vector<std::string> tensor_ids) {
  const NodeId id = next_id_++;
  nodes_.push_back(GraphNode{id, std::move(kernel), std::move(tensor_ids)});
  return id;
}

GraphPlacementPlan ReconfigurableGraph::plan_for_snapshot(const HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                                          bool gpu_available) const {
  GraphPlacementPlan out;
  out.snapshot_summary = snapshot_pressure_summary(snapshot);
  std::vector<MemoryTier> tiers;
  for (const auto& node : nodes_) {
    tiers.clear();
    for (const auto& id : node.tensor_ids) tiers.push_back(mem.get_tier(id).value_or(MemoryTier::ram));
    ExecutionPlan plan = plan_execution(node.kernel, tiers, snapshot, gpu_available);
    out.placements.push_back({node.id, plan.target, std::move(plan.reason)});
  }
  return out;
}

}  // namespace hybrid
