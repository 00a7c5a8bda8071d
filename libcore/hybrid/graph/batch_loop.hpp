#pragma once
// APX 13.6.2-13.6.3: run a graph once per logical tick and offload between ticks.
//
// Per tick i (one snapshot each), appended to the executor's timeline:
//   TICK_START tick=<i>
//   ... ENQUEUE / RUN / FALLBACK lines of the graph's tasks ...
//   OFFLOAD_PLAN tick=<i> actions=<N> reason=<reason>
//   OFFLOAD_APPLY tick=<i> skipped | OFFLOAD_APPLY tick=<i> ok | OFFLOAD_APPLY tick=<i> error=<Kind: message>
//   TICK_END tick=<i>
// An apply error ends the run right after its OFFLOAD_APPLY line (no TICK_END for that tick).
// Offload planning sees every tensor id of the graph once, in first-appearance order.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hybrid/graph/graph_executor.hpp"
#include "hybrid/graph/graph_placement_plan.hpp"
#include "hybrid/graph/reconfigurable_graph.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/offload/smart_offload_engine.hpp"
#include "hybrid/streams/async_executor.hpp"
#include "hybrid/streams/timeline_event.hpp"

namespace hybrid {

struct TickResult {
  std::uint64_t tick = 0;
  GraphPlacementPlan plan;  // planned from live tiers before the tick's graph ran
};

struct BatchRunResult {
  std::vector<TimelineEvent> events;  // the executor's whole timeline after the run, as data
  std::vector<std::string> timeline;  // the same, rendered as lines
  std::vector<TickResult> ticks;      // one per tick started
  std::optional<common::Error> error;     // the offload failure that stopped the run early
};

class BatchLoopRunner {
 public:
  BatchLoopRunner(SmartOffloadEngine offload, GraphExecutor graph_exec)
      : offload_(std::move(offload)), graph_exec_(graph_exec) {}

  [[nodiscard]] SmartOffloadEngine& offload() { return offload_; }
  [[nodiscard]] const GraphExecutor& graph_executor() const { return graph_exec_; }

  // 13.6.2-13.6.3: plans each tick from the tensors' live tiers, then runs it (offload, then the
  // graph's kernels); stops at the first offload failure.
  BatchRunResult run_ticks_with_plans(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                      HybridMemoryManager& mem, std::span<const MemorySnapshot> snapshots,
                                      bool gpu_available);

 private:
  // Runs tick `tick`; returns the offload error that must stop the loop, if any.
  std::optional<common::Error> run_one_tick(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                            HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                        bool gpu_available, std::uint64_t tick);

  SmartOffloadEngine offload_;
  GraphExecutor graph_exec_;
};

// Every distinct tensor id of the graph, in first-appearance order.
[[nodiscard]] std::vector<std::string> graph_tensor_ids(const ReconfigurableGraph& graph);

}  // namespace hybrid
