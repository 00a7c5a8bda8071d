#include "hybrid/offload/smart_offload_engine.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::pressure_snapshot;

namespace {

const Bytes kData{1, 2, 3, 4};

void move_to(HybridMemoryManager& mem, const std::string& id, MemoryTier tier) {
  auto plan = mem.plan_move(id, tier, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move(id, *plan).ok());
  REQUIRE(mem.get_tier(id) == tier);
}

}  // namespace

TEST_CASE("smart_offload_engine: vram_high_moves_vram_tensors_to_ram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("t1", kData, MemoryTier::ram).ok());
  move_to(mem, "t1", MemoryTier::vram);
  const SmartOffloadEngine engine;
  const auto snap = pressure_snapshot(0.99F, 0.1F);
  const std::vector<std::string> ids{"t1"};
  const OffloadPlan plan = engine.plan(snap, ids, mem);
  CHECK(plan.actions == std::vector<OffloadAction>{OffloadAction::move_to_ram("t1")});
  CHECK(plan.reason == "VRAM pressure high");
  REQUIRE(engine.apply(snap, plan, mem).ok());
  CHECK(mem.get_tier("t1") == MemoryTier::ram);
  const auto* ram = as_ram(mem.backing("t1"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == kData);
}

TEST_CASE("smart_offload_engine: ram_high_moves_ram_tensors_to_ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("t2", kData, MemoryTier::ram).ok());
  const SmartOffloadEngine engine;
  const auto snap = pressure_snapshot(0.1F, 0.99F);
  const std::vector<std::string> ids{"t2"};
  const OffloadPlan plan = engine.plan(snap, ids, mem);
  CHECK(plan.actions == std::vector<OffloadAction>{OffloadAction::move_to_ssd("t2")});
  CHECK(plan.reason == "RAM pressure high");
  REQUIRE(engine.apply(snap, plan, mem).ok());
  CHECK(mem.get_tier("t2") == MemoryTier::ssd);
}

TEST_CASE("smart_offload_engine: both_high_prefers_ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("t3", kData, MemoryTier::ram).ok());
  move_to(mem, "t3", MemoryTier::vram);
  REQUIRE(mem.register_tensor_with_data("t4", Bytes{9, 9}, MemoryTier::ram).ok());
  const SmartOffloadEngine engine;
  const auto snap = pressure_snapshot(0.99F, 0.99F);
  const std::vector<std::string> ids{"t3", "t4", "t3"};  // duplicates are planned once
  const OffloadPlan plan = engine.plan(snap, ids, mem);
  CHECK(plan.actions ==
        std::vector<OffloadAction>{OffloadAction::move_to_ssd("t3"), OffloadAction::move_to_ssd("t4")});
  CHECK(plan.reason == "VRAM and RAM pressure high");
  REQUIRE(engine.apply(snap, plan, mem).ok());
  CHECK(mem.get_tier("t3") == MemoryTier::ssd);
  CHECK(mem.get_tier("t4") == MemoryTier::ssd);
  // t3 went VRAM -> RAM -> SSD: its bytes made it to the SSD blob intact.
  move_to(mem, "t3", MemoryTier::ram);
  const auto* ram = as_ram(mem.backing("t3"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == kData);
}

TEST_CASE("smart_offload_engine: no_offload_when_pressures_low") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("t5", kData, MemoryTier::ram).ok());
  const SmartOffloadEngine engine;
  const std::vector<std::string> ids{"t5"};
  const OffloadPlan plan = engine.plan(pressure_snapshot(0.1F, 0.1F), ids, mem);
  CHECK(plan.actions.empty());
  CHECK(plan.reason == "No offloading needed");
}

TEST_CASE("smart_offload_engine: high pressure with nothing offloadable says so") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("r", kData, MemoryTier::ram).ok());
  mem.register_tensor("s", 4, MemoryTier::ssd);
  const SmartOffloadEngine engine;
  const std::vector<std::string> ram_only{"r"};
  CHECK(engine.plan(pressure_snapshot(0.99F, 0.1F), ram_only, mem).reason ==
        "VRAM pressure high but no offloadable tensors in VRAM");
  const std::vector<std::string> ssd_only{"s", "unknown"};
  const OffloadPlan p = engine.plan(pressure_snapshot(0.1F, 0.99F), ssd_only, mem);
  CHECK(p.actions.empty());
  CHECK(p.reason == "RAM pressure high but no offloadable tensors in RAM");
}

TEST_CASE("smart_offload_engine: apply propagates the memory manager's error") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("nobytes", 16, MemoryTier::ram);  // no backing: cannot go to SSD
  const SmartOffloadEngine engine;
  const auto snap = pressure_snapshot(0.1F, 0.99F);
  const std::vector<std::string> ids{"nobytes"};
  const OffloadPlan plan = engine.plan(snap, ids, mem);
  REQUIRE(plan.actions.size() == 1);
  auto r = engine.apply(snap, plan, mem);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().message() == "Cannot move tensor to SSD without backing data");
  CHECK(mem.get_tier("nobytes") == MemoryTier::ram);
}
