#include "hybrid/graph/batch_scenario.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {

// "w" (4 KiB) feeds a compute-heavy node, "b" (100 B) a small one; RAM pressure spikes at tick 1.
BatchScenario two_tensor_scenario() {
  BatchScenario s;
  s.tensors = {{"w", 4096, MemoryTier::ram}, {"b", 100, MemoryTier::ram}};
  s.nodes = {{kernel("matmul", KernelKind::compute_heavy), {"w"}}, {kernel("bias", KernelKind::small), {"b"}}};
  s.ticks = {pressure_snapshot(0.1F, 0.1F), pressure_snapshot(0.1F, 0.99F)};
  s.gpu_available = true;
  s.offload.max_actions_per_tick = 1;
  return s;
}

}  // namespace

TEST_CASE("batch_scenario: payloads are deterministic and differ between ids") {
  CHECK(scenario_payload("w", 64) == scenario_payload("w", 64));
  CHECK(scenario_payload("w", 64) != scenario_payload("v", 64));
  CHECK(scenario_payload("w", 0).empty());
}

TEST_CASE("batch_scenario: runs ticks with real bytes, offloads the largest tensor to SSD") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"), std::make_unique<FakeVramAdapter>());
  auto result = run_batch_scenario(two_tensor_scenario(), mem);
  REQUIRE(result.ok());
  CHECK_FALSE(result->error.has_value());
  REQUIRE(result->ticks.size() == 2);
  // Tick 0 moved w to VRAM for the GPU matmul; tick 1's RAM pressure sends the biggest RAM tensor to SSD.
  CHECK(has_line_containing(result->timeline, "ENQUEUE stream=Gpu", "name=move:ram->vram:w "));
  CHECK(has_line_containing(result->timeline, "OFFLOAD_PLAN tick=1 actions=1 reason=RAM pressure high"));
  CHECK(mem.get_tier("w") == MemoryTier::vram);
  CHECK(mem.get_tier("b") == MemoryTier::ssd);
  const auto* ssd = as_ssd(mem.backing("b"));
  REQUIRE(ssd != nullptr);
  CHECK(std::filesystem::exists(ssd->path));
  auto back = mem.plan_move("b", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(back.ok());
  REQUIRE(mem.apply_move("b", *back).ok());
  const auto* ram = as_ram(mem.backing("b"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == scenario_payload("b", 100));

  CHECK(describe_tick_plans(result->ticks) == std::vector<std::string>{
                                                 "TICK_PLAN tick=0 summary=Snapshot pressures: vram=0.1000, ram=0.1000",
                                                 "NODE_PLAN tick=0 node=0 target=Gpu reason=GPU execution preferred",
                                                 "NODE_PLAN tick=0 node=1 target=Cpu reason=Kernel not suitable for GPU execution",
                                                 "TICK_PLAN tick=1 summary=Snapshot pressures: vram=0.1000, ram=0.9900",
                                                 "NODE_PLAN tick=1 node=0 target=Gpu reason=GPU execution preferred",
                                                 "NODE_PLAN tick=1 node=1 target=Cpu reason=Kernel not suitable for GPU execution",
                                             });
}

TEST_CASE("batch_scenario: two runs in different cache directories give identical output") {
  testsupport::TempDir a;
  testsupport::TempDir b;
  HybridMemoryManager mem_a(a.path(), std::make_unique<FakeVramAdapter>());
  HybridMemoryManager mem_b(b.path(), std::make_unique<FakeVramAdapter>());
  auto ra = run_batch_scenario(two_tensor_scenario(), mem_a);
  auto rb = run_batch_scenario(two_tensor_scenario(), mem_b);
  REQUIRE(ra.ok());
  REQUIRE(rb.ok());
  CHECK(ra->timeline == rb->timeline);
  CHECK(describe_tick_plans(ra->ticks) == describe_tick_plans(rb->ticks));
}

TEST_CASE("batch_scenario: without VRAM the GPU plan degrades to CPU and nothing is uploaded") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());  // NullVramAdapter
  auto result = run_batch_scenario(two_tensor_scenario(), mem);
  REQUIRE(result.ok());
  CHECK_FALSE(has_line_containing(result->timeline, "ENQUEUE stream=Gpu"));
  CHECK(has_line_containing(result->timeline, "OFFLOAD_PLAN tick=1 actions=1 ", "selected 1/2"));
  CHECK(mem.get_tier("w") == MemoryTier::ssd);  // the bigger RAM tensor goes first
}

TEST_CASE("batch_scenario: invalid scenarios are rejected with the JSON path of the problem") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  BatchScenario dup = two_tensor_scenario();
  dup.tensors.push_back({"w", 1, MemoryTier::ram});
  auto r1 = run_batch_scenario(dup, mem);
  REQUIRE_FALSE(r1.ok());
  CHECK(r1.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r1.error().where().json_path == "/tensors/2/id");
  CHECK(r1.error().message() == "duplicate tensor id 'w'");

  BatchScenario unknown = two_tensor_scenario();
  unknown.nodes[1].tensor_ids.push_back("ghost");
  auto r2 = run_batch_scenario(unknown, mem);
  REQUIRE_FALSE(r2.ok());
  CHECK(r2.error().where().json_path == "/nodes/1/tensors/1");

  BatchScenario huge = two_tensor_scenario();
  huge.tensors[0].bytes = kMaxScenarioTensorBytes + 1;
  auto r3 = run_batch_scenario(huge, mem);
  REQUIRE_FALSE(r3.ok());
  CHECK(r3.error().where().json_path == "/tensors/0/bytes");
  CHECK(mem.tensor_count() == 0);  // validation happens before anything is registered
}
