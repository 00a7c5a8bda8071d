#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "hybrid/autograd/execute_backward.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/refusing_vram_adapter.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::low_pressure;

namespace {

using K = GradMoveRecord::Kind;

AutogradGraph one_node(NodeId id, ExecutionTarget forward, MemoryTier believed) {
  AutogradGraph g;
  g.add_node(AutogradNode{id, forward, ExecutionTarget::cpu, {{"g1", believed}, {"g2", believed}}, {}, "node reason"});
  return g;
}

}  // namespace

TEST_CASE("autograd_trace: trace_records_moves_and_target_gpu_success") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const AutogradTrace trace =
      execute_backward_with_trace(exec, mem, one_node(1, ExecutionTarget::gpu, MemoryTier::vram), low_pressure(), true);
  REQUIRE(trace.nodes.size() == 1);
  const auto& n = trace.nodes[0];
  CHECK(n.node_id == 1);
  CHECK(n.forward_target == ExecutionTarget::gpu);
  CHECK(n.requested_backward_target == ExecutionTarget::gpu);
  CHECK(n.final_backward_target == ExecutionTarget::gpu);
  CHECK(n.reason == "node reason");
  CHECK(n.moves == std::vector<GradMoveRecord>{
                       GradMoveRecord::planned("g1", MemoryTier::ram, MemoryTier::vram),
                       GradMoveRecord::applied("g1", MemoryTier::ram, MemoryTier::vram),
                       GradMoveRecord::planned("g2", MemoryTier::ram, MemoryTier::vram),
                       GradMoveRecord::applied("g2", MemoryTier::ram, MemoryTier::vram),
                   });
  CHECK(mem.get_tier("g1") == MemoryTier::vram);
  CHECK(exec.timeline() == std::vector<std::string>{
                               "ENQUEUE stream=Gpu id=1 kind=Compute name=backward:node1 cost=1",
                               "AUTOGRAD node=1 target=Gpu moves=4 fallback=0",
                           });
}

TEST_CASE("autograd_trace: trace_records_fallback_when_gpu_move_fails") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<hybrid::testing::RefusingVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1, 2}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{3, 4}, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const AutogradTrace trace =
      execute_backward_with_trace(exec, mem, one_node(2, ExecutionTarget::gpu, MemoryTier::vram), low_pressure(), true);
  REQUIRE(trace.nodes.size() == 1);
  const auto& n = trace.nodes[0];
  CHECK(n.requested_backward_target == ExecutionTarget::gpu);
  CHECK(n.final_backward_target == ExecutionTarget::cpu);
  CHECK(n.reason == "node reason; GPU fallback due to move failure");
  const auto failed = std::ranges::find_if(n.moves, [](const GradMoveRecord& m) { return m.kind == K::failed; });
  REQUIRE(failed != n.moves.end());
  CHECK(failed->reason.find("simulated VRAM failure") != std::string::npos);
  // After the failed GPU attempt both gradients are already in RAM: the CPU pass skips them.
  CHECK(n.moves.back() == GradMoveRecord::skipped("g2", "already in target tier"));
  CHECK(mem.get_tier("g1") == MemoryTier::ram);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Cpu", "name=backward:node2 "));
  CHECK(exec.timeline().back() ==
        "AUTOGRAD node=2 target=Cpu moves=" + std::to_string(n.moves.size()) + " fallback=1");
}

TEST_CASE("autograd_trace: trace_skips_moves_when_already_in_target") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("g1", 4, MemoryTier::ram);
  mem.register_tensor("g2", 4, MemoryTier::ram);
  AsyncExecutor exec(StreamConfig{true});
  const AutogradTrace trace =
      execute_backward_with_trace(exec, mem, one_node(3, ExecutionTarget::cpu, MemoryTier::ram), low_pressure(), true);
  REQUIRE(trace.nodes.size() == 1);
  const auto& n = trace.nodes[0];
  CHECK(n.requested_backward_target == ExecutionTarget::cpu);
  CHECK(n.final_backward_target == ExecutionTarget::cpu);
  REQUIRE(n.moves.size() == 2);
  for (const auto& m : n.moves) {
    CHECK(m.kind == K::skipped);
    CHECK(m.reason.find("already in target tier") != std::string::npos);
  }
  CHECK(exec.timeline().back() == "AUTOGRAD node=3 target=Cpu moves=2 fallback=0");
}

TEST_CASE("autograd_trace: unregistered gradients are skipped with their reason") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AsyncExecutor exec(StreamConfig{true});
  const AutogradTrace trace =
      execute_backward_with_trace(exec, mem, one_node(5, ExecutionTarget::cpu, MemoryTier::ssd), low_pressure(), true);
  REQUIRE(trace.nodes[0].moves.size() == 2);
  CHECK(trace.nodes[0].moves[0] ==
        GradMoveRecord::skipped("g1", "tensor not registered in memory manager"));
}

TEST_CASE("autograd_trace: a degraded VRAM plan is recorded as Failed and falls back") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());  // NullVramAdapter
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{1}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g2", Bytes{2}, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const AutogradTrace trace =
      execute_backward_with_trace(exec, mem, one_node(7, ExecutionTarget::gpu, MemoryTier::vram), low_pressure(), true);
  const auto& n = trace.nodes[0];
  CHECK(n.final_backward_target == ExecutionTarget::cpu);
  CHECK(n.moves[1] == GradMoveRecord::failed("g1", "VRAM unavailable; degrading placement to RAM"));
  CHECK(exec.timeline().back() == "AUTOGRAD node=7 target=Cpu moves=6 fallback=1");
}
