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
  std::vector<std::string> tensor_ids;  // the tensors it reads: their tiers are the memory manager's
};

class ReconfigurableGraph {
 public:
  NodeId add_node(KernelProfile kernel, std::vector<std::string> tensor_ids);

  [[nodiscard]] const std::vector<GraphNode>& nodes() const { return nodes_; }

  // Plans every node with the tiers the memory manager reports now (unknown ids count as Ram).
  [[nodiscard]] GraphPlacementPlan plan_for_snapshot(const HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                                     bool gpu_available) const;

 private:
  std::vector<GraphNode> nodes_;
  NodeId next_id_ = 0;
};

}  // namespace hybrid
