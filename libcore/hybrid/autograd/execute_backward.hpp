#pragma once
// APX 13.7.0-13.7.1: enqueue a graph's backward as abstract compute tasks, in reverse node order.
//
// execute_backward, per node:
//   target = decide_backward_target(forward, tiers of the node's TensorGrads, ...)
//   Gpu: gradients moved to VRAM; on a common::Error the line
//        "BACKWARD_FALLBACK node=<id> from=Gpu to=Cpu" is recorded and the node goes to Cpu.
//   Cpu: gradients moved to RAM, best-effort (errors ignored).
//   task "backward:node<id>" (cost 1) on the Gpu or Cpu stream, then the line
//        "BACKWARD node=<id> target=<Cpu|Gpu> reason=<node.reason>".
// execute_backward_with_trace does the same placement, records every gradient move in an
// AutogradTrace and, instead of the BACKWARD lines, records
//        "AUTOGRAD node=<id> target=<Cpu|Gpu> moves=<N> fallback=<0|1>".
// Neither runs the executor.
#include <string>
#include <vector>

#include "hybrid/autograd/autograd_graph.hpp"
#include "hybrid/autograd/autograd_trace.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/streams/async_executor.hpp"

namespace hybrid {

void execute_backward(AsyncExecutor& exec, HybridMemoryManager& mem, const AutogradGraph& graph,
                      const MemorySnapshot& snapshot, bool gpu_available);

[[nodiscard]] AutogradTrace execute_backward_with_trace(AsyncExecutor& exec, HybridMemoryManager& mem,
                                                        const AutogradGraph& graph, const MemorySnapshot& snapshot,
                                                        bool gpu_available);

}  // namespace hybrid
