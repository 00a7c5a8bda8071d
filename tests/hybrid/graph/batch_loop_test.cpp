#include "hybrid/graph/batch_loop.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::index_of;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {

BatchLoopRunner make_runner(OffloadConfig cfg) {
  return BatchLoopRunner(SmartOffloadEngine(cfg), GraphExecutor(StreamConfig{true}));
}

bool has_exact(const std::vector<std::string>& timeline, const std::string& line) {
  return std::ranges::find(timeline, line) != timeline.end();
}

}  // namespace

TEST_CASE("batch_loop: offload_runs_between_ticks_and_moves_ram_to_ssd_when_ram_high") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  const Bytes data{10, 20, 30, 40};
  REQUIRE(mem.register_tensor_with_data("t1", data, MemoryTier::ram).ok());
  ReconfigurableGraph graph;
  graph.add_node(kernel("cpu_node", KernelKind::small), {"t1"});
  AsyncExecutor exec(StreamConfig{true});
  auto runner = make_runner(OffloadConfig{.max_actions_per_tick = 1});
  const std::vector<MemorySnapshot> snaps{pressure_snapshot(0.1F, 0.1F), pressure_snapshot(0.1F, 0.99F)};
  const auto timeline = runner.run_ticks_with_plans(graph, exec, mem, snaps, true).timeline;

  CHECK(mem.get_tier("t1") == MemoryTier::ssd);
  CHECK(timeline == exec.timeline());
  CHECK(timeline == std::vector<std::string>{
                        "TICK_START tick=0",
                        "ENQUEUE stream=Cpu id=1 kind=Compute name=cpu_node cost=1",
                        "RUN stream=Cpu id=1 kind=Compute name=cpu_node cost=1",
                        "OFFLOAD_PLAN tick=0 actions=0 reason=No offloading needed",
                        "OFFLOAD_APPLY tick=0 skipped",
                        "TICK_END tick=0",
                        "TICK_START tick=1",
                        "ENQUEUE stream=Cpu id=2 kind=Compute name=cpu_node cost=1",
                        "RUN stream=Cpu id=2 kind=Compute name=cpu_node cost=1",
                        "OFFLOAD_PLAN tick=1 actions=1 reason=RAM pressure high; Priority offloading enabled; "
                        "selected 1/1",
                        "OFFLOAD_MOVE tick=1 tensor=t1 from=ram to=ssd",
                        "OFFLOAD_APPLY tick=1 ok",
                        "TICK_END tick=1",
                    });
}

TEST_CASE("batch_loop: hysteresis_stable_band_does_not_thrash_between_ticks") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("t2", Bytes{1, 2}, MemoryTier::ram).ok());
  ReconfigurableGraph graph;
  graph.add_node(kernel("cpu_node", KernelKind::small), {"t2"});
  AsyncExecutor exec(StreamConfig{true});
  auto runner = make_runner(OffloadConfig{});
  const std::vector<MemorySnapshot> snaps{pressure_snapshot(0.1F, 0.90F), pressure_snapshot(0.1F, 0.90F)};
  const auto timeline = runner.run_ticks_with_plans(graph, exec, mem, snaps, true).timeline;
  CHECK(mem.get_tier("t2") == MemoryTier::ram);
  CHECK(has_exact(timeline, "OFFLOAD_PLAN tick=0 actions=0 reason=No new offloading due to hysteresis band"));
  CHECK(has_exact(timeline, "OFFLOAD_PLAN tick=1 actions=0 reason=No new offloading due to hysteresis band"));
  CHECK(has_exact(timeline, "OFFLOAD_APPLY tick=1 skipped"));
}

TEST_CASE("batch_loop: priority_budget_limits_actions_per_tick") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("tA", Bytes(10, 1), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("tB", Bytes(100, 2), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("tC", Bytes(50, 3), MemoryTier::ram).ok());
  ReconfigurableGraph graph;
  graph.add_node(kernel("cpu_node", KernelKind::small), {"tA", "tB", "tC"});
  AsyncExecutor exec(StreamConfig{true});
  auto runner = make_runner(OffloadConfig{.max_actions_per_tick = 2});
  const std::vector<MemorySnapshot> snaps{pressure_snapshot(0.1F, 0.99F)};
  const auto timeline = runner.run_ticks_with_plans(graph, exec, mem, snaps, true).timeline;
  CHECK(mem.get_tier("tB") == MemoryTier::ssd);
  CHECK(mem.get_tier("tC") == MemoryTier::ssd);
  CHECK(mem.get_tier("tA") == MemoryTier::ram);
  CHECK(has_line_containing(timeline, "OFFLOAD_PLAN tick=0 actions=2 ", "selected 2/3"));
}

TEST_CASE("batch_loop: an offload apply error stops the loop after its OFFLOAD_APPLY line") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("bare", 16, MemoryTier::ram);  // no bytes: the SSD move is refused
  ReconfigurableGraph graph;
  graph.add_node(kernel("cpu_node", KernelKind::small), {"bare"});
  AsyncExecutor exec(StreamConfig{true});
  auto runner = make_runner(OffloadConfig{});
  const std::vector<MemorySnapshot> snaps{pressure_snapshot(0.1F, 0.99F), pressure_snapshot(0.1F, 0.1F)};
  const BatchRunResult result = runner.run_ticks_with_plans(graph, exec, mem, snaps, true);
  REQUIRE(result.error.has_value());
  CHECK(result.error->code() == common::ErrorCode::invalid_argument);
  CHECK(result.ticks.size() == 1);
  CHECK(result.timeline.back() ==
        "OFFLOAD_APPLY tick=0 error=Unsupported: Cannot move tensor to SSD without backing data");
  CHECK(index_of(result.timeline, "TICK_START tick=1") == -1);
  CHECK(index_of(result.timeline, "TICK_END tick=0") == -1);
}

TEST_CASE("batch_loop: graph_tensor_ids lists each id once in first-appearance order") {
  ReconfigurableGraph graph;
  graph.add_node(kernel("a", KernelKind::small), {"x", "y"});
  graph.add_node(kernel("b", KernelKind::small), {"y", "w", "x"});
  CHECK(graph_tensor_ids(graph) == std::vector<std::string>{"x", "y", "w"});
}
