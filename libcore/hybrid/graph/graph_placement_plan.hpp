#pragma once
// APX 13.6.0: the planner's verdict for every node of a graph under one snapshot.
#include <cstdint>
#include <string>
#include <vector>

#include "hybrid/memory/memory_types.hpp"
#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

using NodeId = std::uint64_t;

struct NodePlacement {
  NodeId node_id = 0;
  ExecutionTarget target = ExecutionTarget::cpu;
  std::string reason;
};

struct GraphPlacementPlan {
  std::vector<NodePlacement> placements;  // graph order
  std::string snapshot_summary;           // "Snapshot pressures: vram=0.4200, ram=0.8400"
};

// The summary line; absent pressures print as 0.
[[nodiscard]] std::string snapshot_pressure_summary(const MemorySnapshot& snapshot);

}  // namespace hybrid
