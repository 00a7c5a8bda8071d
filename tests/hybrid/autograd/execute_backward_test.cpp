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
  auto plan = mem.plan_move(id, MemoryTier::vram, low_pressure());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move(id, *plan).ok());
  REQUIRE(mem.get_tier(id) == MemoryTier::vram);
}

AutogradNode node(NodeId id, ExecutionTarget forward, std::vector<TensorGrad> grads, std::string reason = "test") {
  return AutogradNode{id, forward, ExecutionTarget::cpu, std::move(grads), {}, std::move(reason)};
}

}  // namespace

TEST_CASE("backward_placement: GPU only for GPU forward, all grads in VRAM and a GPU") {
  const auto snap = low_pressure();
  const std::vector<MemoryTier> vram{MemoryTier::vram, MemoryTier::vram};
  const std::vector<MemoryTier> mixed{MemoryTier::vram, MemoryTier::ram};
  CHECK(decide_backward_target(ExecutionTarget::gpu, vram, snap, true) == ExecutionTarget::gpu);
  CHECK(decide_backward_target(ExecutionTarget::gpu, vram, snap, false) == ExecutionTarget::cpu);
  CHECK(decide_backward_target(ExecutionTarget::gpu, mixed, snap, true) == ExecutionTarget::cpu);
  CHECK(decide_backward_target(ExecutionTarget::cpu_fallback, vram, snap, true) == ExecutionTarget::cpu);
  CHECK(decide_backward_target(ExecutionTarget::cpu, vram, snap, true) == ExecutionTarget::cpu);
}

TEST_CASE("execute_backward: backward_runs_on_gpu_when_grads_in_vram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::ram).ok());
  to_vram(mem, "g1");
  to_vram(mem, "g2");
  AutogradGraph graph;
  graph.add_node(node(1, ExecutionTarget::gpu, {{"g1", MemoryTier::vram}, {"g2", MemoryTier::vram}}, "matmul grad"));
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
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::ram).ok());
  to_vram(mem, "g2");
  AutogradGraph graph;
  graph.add_node(node(2, ExecutionTarget::gpu, {{"g1", MemoryTier::ram}, {"g2", MemoryTier::vram}}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Cpu", "name=backward:node2 "));
  CHECK_FALSE(has_line_containing(exec.timeline(), "ENQUEUE stream=Gpu", "backward:node2"));
  CHECK(has_line_containing(exec.timeline(), "BACKWARD node=2 target=Cpu"));
  // CPU backward wants its gradients in RAM.
  CHECK(mem.get_tier("g2") == MemoryTier::ram);
}

TEST_CASE("execute_backward: backward_moves_grads_to_ram_for_cpu") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("g1", 8, MemoryTier::ssd);
  mem.register_tensor("g2", 8, MemoryTier::ssd);
  AutogradGraph graph;
  graph.add_node(node(3, ExecutionTarget::cpu, {{"g1", MemoryTier::ssd}, {"g2", MemoryTier::ssd}}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(mem.get_tier("g1") == MemoryTier::ram);
  CHECK(mem.get_tier("g2") == MemoryTier::ram);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Cpu", "name=backward:node3 "));
}

TEST_CASE("execute_backward: nodes run in reverse order") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AutogradGraph graph;
  graph.add_node(node(1, ExecutionTarget::cpu, {}));
  graph.add_node(node(2, ExecutionTarget::cpu, {}));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  REQUIRE(exec.timeline().size() == 4);
  CHECK(exec.timeline()[0].find("backward:node2") != std::string::npos);
  CHECK(exec.timeline()[2].find("backward:node1") != std::string::npos);
}

TEST_CASE("execute_backward: a failed GPU preparation records BACKWARD_FALLBACK and runs on CPU") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<hybrid::testing::RefusingVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1}, MemoryTier::ram).ok());
  AutogradGraph graph;
  graph.add_node(node(4, ExecutionTarget::gpu, {{"g1", MemoryTier::vram}}));  // caller believes VRAM
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(exec.timeline() == std::vector<std::string>{
                               "BACKWARD_FALLBACK node=4 from=Gpu to=Cpu",
                               "ENQUEUE stream=Cpu id=1 kind=Compute name=backward:node4 cost=1",
                               "BACKWARD node=4 target=Cpu reason=test",
                           });
  CHECK(mem.get_tier("g1") == MemoryTier::ram);
}

TEST_CASE("execute_backward: a VRAM placement the memory manager degrades counts as a failed GPU preparation") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());  // NullVramAdapter: plans to VRAM come back as RAM
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1}, MemoryTier::ram).ok());
  const std::vector<TensorGrad> grads{{"g1", MemoryTier::vram}};
  auto prep = prepare_gradients(mem, grads, ExecutionTarget::gpu, low_pressure());
  REQUIRE_FALSE(prep.ok());
  CHECK(prep.error().code() == common::ErrorCode::unsupported);
  CHECK(prep.error().message() == "VRAM unavailable; degrading placement to RAM");
  AutogradGraph graph;
  graph.add_node(node(6, ExecutionTarget::gpu, grads));
  AsyncExecutor exec(StreamConfig{true});
  execute_backward(exec, mem, graph, low_pressure(), true);
  CHECK(exec.timeline().front() == "BACKWARD_FALLBACK node=6 from=Gpu to=Cpu");
  CHECK(exec.timeline().back() == "BACKWARD node=6 target=Cpu reason=test");
}
