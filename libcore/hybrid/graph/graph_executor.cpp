#include "hybrid/graph/graph_executor.hpp"

namespace hybrid {

std::vector<RoutedBundle> GraphExecutor::enqueue_graph(const ReconfigurableGraph& graph, AsyncExecutor& exec,
                                                       HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                                                       bool gpu_available) const {
  std::vector<RoutedBundle> bundles;
  bundles.reserve(graph.nodes().size());
  for (const auto& node : graph.nodes()) {
    bundles.push_back(route_kernel_with_memory(exec, mem, node.kernel, node.tensor_ids, snapshot, gpu_available));
  }
  return bundles;
}

}  // namespace hybrid
