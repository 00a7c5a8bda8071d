#pragma once
// APX 13.6.1: enqueue a whole graph, node by node, through the memory-aware stream router. The
// executor's timeline then holds every node's prefetch -> move -> compute in graph order.
#include <vector>

#include "hybrid/graph/reconfigurable_graph.hpp"
#include "hybrid/streams/async_executor.hpp"
#include "hybrid/streams/stream_router.hpp"

namespace hybrid {

class GraphExecutor {
 public:
  explicit GraphExecutor(StreamConfig cfg) : cfg_(cfg) {}

  [[nodiscard]] const StreamConfig& config() const { return cfg_; }

  // One bundle per node, in graph order. Does not run the executor.
  std::vector<RoutedBundle> enqueue_graph(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                          HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                          bool gpu_available) const;

 private:
  StreamConfig cfg_;
};

}  // namespace hybrid
