#pragma once
// APX 13.6.0-13.6.1, 13.6.3: an ordered sequence of kernel nodes that can be re-planned for any
// memory snapshot without being modified.
#include <cstdint>
#include <string>
#include <vector>

#include "hybrid/graph/graph_placement_plan.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

struct GraphNode {
  NodeId id = 0;
  KernelProfile kernel;
  std::vector<std::string> tensor_ids;
  std::vector<MemoryTier> tensor_tiers;  // static tiers recorded when the node was added
};

class ReconfigurableGraph {
 public:
  // Tensor ids are synthesized as "t<node>_<index>".
  NodeId add_node(KernelProfile kernel, std::vector<MemoryTier> tensor_tiers);
  // Ids and tiers are paired up to the shorter of the two lists.
  NodeId add_node_with_tensors(KernelProfile kernel, std::vector<std::string> tensor_ids,
                               std::vector<MemoryTier> tensor_tiers);

  [[nodiscard]] const std::vector<GraphNode>& nodes() const { return nodes_; }

  // Plans every node with its static tiers.
  [[nodiscard]] GraphPlacementPlan plan_for_snapshot(const MemorySnapshot& snapshot, bool gpu_available) const;
  // Plans every node with the tiers the memory manager reports now (unknown ids count as Ram).
  [[nodiscard]] GraphPlacementPlan plan_for_snapshot_with_mem(const HybridMemoryManager& mem,
                                                              const MemorySnapshot& snapshot,
                                                              bool gpu_available) const;

 private:
  std::vector<GraphNode> nodes_;
  NodeId next_id_ = 0;
};

}  // namespace hybrid
