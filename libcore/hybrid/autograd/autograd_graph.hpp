#pragma once
// APX 13.7.0: backward work as abstract nodes that carry gradient ids and their tiers.
#include <string>
#include <vector>

#include "hybrid/graph/graph_placement_plan.hpp"
#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

using GradId = std::string;

struct TensorGrad {
  GradId id;
  MemoryTier tier = MemoryTier::ram;  // the tier the caller believes the gradient is in
};

struct AutogradNode {
  NodeId node_id = 0;  // the forward node in the ReconfigurableGraph
  ExecutionTarget forward_target = ExecutionTarget::cpu;
  ExecutionTarget backward_target = ExecutionTarget::cpu;  // informational; decided at execution
  std::vector<TensorGrad> input_grads;
  std::vector<TensorGrad> output_grads;
  std::string reason;
};

// Nodes in forward order; backward visits them in reverse.
class AutogradGraph {
 public:
  void add_node(AutogradNode node) { nodes_.push_back(std::move(node)); }
  [[nodiscard]] const std::vector<AutogradNode>& nodes() const { return nodes_; }

 private:
  std::vector<AutogradNode> nodes_;
};

}  // namespace hybrid
