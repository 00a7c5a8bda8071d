#include "hybrid/autograd/execute_backward.hpp"

#include <doctest/doctest.h>

#include <memory>

#include "hybrid/autograd/backward_placement.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/refusing_vram_adapter.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::low_pressure;

namespace {

void to_vram(HybridMemoryManager& mem, const std::string& id) {
  auto plan = mem.plan_move(id, MemoryTier::Vram, low_pressure());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move(id, *plan).ok());
  REQUIRE(mem.get_tier(id) == MemoryTier::Vram);
}

AutogradNode node(NodeId id, ExecutionTarget forward, std::vector<TensorGrad> grads, std::string reason = "test") {
  return AutogradNode{id, forward, ExecutionTarget::Cpu, std::move(grads), {}, std::move(reason)};
}

}  // namespace

TEST_CASE("backward_placement: GPU only for GPU forward, all grads in VRAM and a GPU") {
  const auto snap = low_pressure();
  const std::vector<MemoryTier> vram{MemoryTier::Vram, MemoryTier::Vram};
  const std::vector<MemoryTier> mixed{MemoryTier::Vram, MemoryTier::Ram};
  CHECK(decide_backward_target(ExecutionTarget::Gpu, vram, snap, true) == ExecutionTarget::Gpu);
  CHECK(decide_backward_target(ExecutionTarget::Gpu, vram, snap, false) == ExecutionTarget::Cpu);
  CHECK(decide_backward_target(ExecutionTarget::Gpu, mixed, snap, true) == ExecutionTarget::Cpu);
  CHECK(decide_backward_target(ExecutionTarget::CpuFallback, vram, snap, true) == ExecutionTarget::Cpu);
  CHECK(decide_backward_target(ExecutionTarget::Cpu, vram, snap, true) == ExecutionTarget::Cpu);
}

TEST_CASE("execute_backward: backward_runs_on_gpu_when_grads_in_vram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::Ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::Ram).ok());
  to_vram(mem, "g1");
  to_vram(mem, "g2");
  AutogradGraph graph;
  graph.add_node(node(1, ExecutionTarget::Gpu, {{"g1", MemoryTier::Vram}, {"g2", MemoryTier::Vram}}, "matmul grad"));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(exec.timeline() == std::vector<std::string>{
                               "ENQUEUE stream=Gpu id=1 kind=Compute name=backward:node1 cost=1",
                               "BACKWARD node=1 target=Gpu reason=matmul grad",
                           });
  CHECK(exec.pending() == 1);  // execute_backward does not run the executor
}

TEST_CASE("execute_backward: backward_falls_back_to_cpu_when_grad_on_ram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::Ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::Ram).ok());
  to_vram(mem, "g2");
  AutogradGraph graph;
  graph.add_node(node(2, ExecutionTarget::Gpu, {{"g1", MemoryTier::Ram}, {"g2", MemoryTier::Vram}}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Cpu", "name=backward:node2 "));
  CHECK_FALSE(has_line_containing(exec.timeline(), "ENQUEUE stream=Gpu", "backward:node2"));
  CHECK(has_line_containing(exec.timeline(), "BACKWARD node=2 target=Cpu"));
  // CPU backward wants its gradients in RAM.
  CHECK(mem.get_tier("g2") == MemoryTier::Ram);
}

TEST_CASE("execute_backward: backward_moves_grads_to_ram_for_cpu") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("g1", 8, MemoryTier::Ssd);
  mem.register_tensor("g2", 8, MemoryTier::Ssd);
  AutogradGraph graph;
  graph.add_node(node(3, ExecutionTarget::Cpu, {{"g1", MemoryTier::Ssd}, {"g2", MemoryTier::Ssd}}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(mem.get_tier("g1") == MemoryTier::Ram);
  CHECK(mem.get_tier("g2") == MemoryTier::Ram);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Cpu", "name=backward:node3 "));
}

TEST_CASE("execute_backward: nodes run in reverse order") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AutogradGraph graph;
  graph.add_node(node(1, ExecutionTarget::Cpu, {}));
  graph.add_node(node(2, ExecutionTarget::Cpu, {}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  REQUIRE(exec.timeline().size() == 4);
  CHECK(exec.timeline()[0].find("backward:node2") != std::string::npos);
  CHECK(exec.timeline()[2].find("backward:node1") != std::string::npos);
}

TEST_CASE("execute_backward: a failed GPU preparation records BACKWARD_FALLBACK and runs on CPU") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<hybrid::testing::RefusingVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1}, MemoryTier::Ram).ok());
  AutogradGraph graph;
  graph.add_node(node(4, ExecutionTarget::Gpu, {{"g1", MemoryTier::Vram}}));  // caller believes VRAM
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(exec.timeline() == std::vector<std::string>{
                               "BACKWARD_FALLBACK node=4 from=Gpu to=Cpu",
                               "ENQUEUE stream=Cpu id=1 kind=Compute name=backward:node4 cost=1",
                               "BACKWARD node=4 target=Cpu reason=test",
                           });
  CHECK(mem.get_tier("g1") == MemoryTier::Ram);
}

TEST_CASE("execute_backward: a VRAM placement the memory manager degrades counts as a failed GPU preparation") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());  // NullVramAdapter: plans to VRAM come back as RAM
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1}, MemoryTier::Ram).ok());
  const std::vector<TensorGrad> grads{{"g1", MemoryTier::Vram}};
  auto prep = prepare_gradients(mem, grads, ExecutionTarget::Gpu, low_pressure());
  REQUIRE_FALSE(prep.ok());
  CHECK(prep.error().code() == common::ErrorCode::unsupported);
  CHECK(prep.error().message() == "VRAM unavailable; degrading placement to RAM");
  AutogradGraph graph;
  graph.add_node(node(6, ExecutionTarget::Gpu, grads));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(exec.timeline().front() == "BACKWARD_FALLBACK node=6 from=Gpu to=Cpu");
  CHECK(exec.timeline().back() == "BACKWARD node=6 target=Cpu reason=test");
}
