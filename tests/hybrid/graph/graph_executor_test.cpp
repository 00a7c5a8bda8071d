#include "hybrid/graph/graph_executor.hpp"

#include <doctest/doctest.h>

#include <memory>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::index_of;
using hybrid::testing::kernel;
using hybrid::testing::lines_starting;
using hybrid::testing::low_pressure;

namespace {

// t1 on SSD (node1, compute-heavy), t2 in RAM (node2, small).
struct TwoNodeFixture {
  testsupport::TempDir dir;
  HybridMemoryManager mem{dir.path()};
  ReconfigurableGraph graph;
  TwoNodeFixture() {
    REQUIRE(mem.register_tensor_with_data("t1", Bytes{1, 2, 3}, MemoryTier::ssd).ok());
    REQUIRE(mem.register_tensor_with_data("t2", Bytes{4, 5}, MemoryTier::ram).ok());
    graph.add_node(kernel("node1", KernelKind::compute_heavy), {"t1"});
    graph.add_node(kernel("node2", KernelKind::small), {"t2"});
  }
};

}  // namespace

TEST_CASE("graph_executor: graph_execution_enqueues_tasks_in_node_order") {
  TwoNodeFixture f;
  const StreamConfig cfg{true};
  AsyncExecutor exec(cfg);
  const auto bundles = GraphExecutor(cfg).enqueue_graph(f.graph, exec, f.mem, low_pressure(), false);
  REQUIRE(bundles.size() == 2);
  CHECK(bundles[0].submitted_task_ids.size() == 3);
  CHECK(bundles[1].submitted_task_ids.size() == 1);
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 4);
  CHECK(enq[0].find("name=prefetch:t1") != std::string::npos);
  CHECK(enq[1].find("name=move:ssd->ram:t1") != std::string::npos);
  CHECK(enq[2].find("name=node1") != std::string::npos);
  CHECK(enq[3].find("name=node2") != std::string::npos);
}

TEST_CASE("graph_executor: graph_execution_updates_memory_tiers") {
  TwoNodeFixture f;
  const StreamConfig cfg{true};
  AsyncExecutor exec(cfg);
  (void)GraphExecutor(cfg).enqueue_graph(f.graph, exec, f.mem, low_pressure(), false);
  CHECK(f.mem.get_tier("t1") == MemoryTier::ram);
  CHECK(f.mem.get_tier("t2") == MemoryTier::ram);
  CHECK(lines_starting(exec.timeline(), "RUN").empty());
  exec.run_to_completion();
  CHECK(has_line_containing(exec.timeline(), "RUN", "name=node1 "));
  CHECK(has_line_containing(exec.timeline(), "RUN", "name=node2 "));
}

TEST_CASE("graph_executor: gpu_plan_enqueues_gpu_compute_for_compute_heavy_node") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("t", Bytes{7, 7, 7}, MemoryTier::ram).ok());
  ReconfigurableGraph graph;
  graph.add_node(kernel("gpu_node", KernelKind::compute_heavy), {"t"});
  const StreamConfig cfg{true};
  AsyncExecutor exec(cfg);
  const auto bundles = GraphExecutor(cfg).enqueue_graph(graph, exec, mem, low_pressure(), true);
  REQUIRE(bundles.size() == 1);
  CHECK(bundles[0].plan_target == ExecutionTarget::gpu);
  CHECK(mem.get_tier("t") == MemoryTier::vram);
  const long move = index_of(exec.timeline(), "ENQUEUE stream=Gpu", "name=move:ram->vram:t ");
  const long compute = index_of(exec.timeline(), "ENQUEUE stream=Gpu id=2 kind=Compute name=gpu_node");
  CHECK(move >= 0);
  CHECK(compute > move);
}
