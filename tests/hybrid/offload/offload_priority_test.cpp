#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hybrid/offload/smart_offload_engine.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::pressure_snapshot;

namespace {
const MemorySnapshot kRamHot = pressure_snapshot(0.1F, 0.99F);
}

TEST_CASE("offload_priority: selects_largest_tensors_first_under_ram_pressure") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("small", Bytes(10, 1), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("large", Bytes(100, 2), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("medium", Bytes(50, 3), MemoryTier::ram).ok());
  SmartOffloadEngine engine(OffloadConfig{.max_actions_per_tick = 2});
  const std::vector<std::string> ids{"small", "large", "medium"};
  const OffloadPlan plan = engine.plan_with_tick(kRamHot, ids, mem, 1);
  CHECK(plan.actions ==
        std::vector<OffloadAction>{OffloadAction::move_to_ssd("large"), OffloadAction::move_to_ssd("medium")});
  CHECK(plan.reason == "RAM pressure high; Priority offloading enabled; selected 2/3");
  CHECK_FALSE(engine.last_moved("small").has_value());
}

TEST_CASE("offload_priority: tie_breaks_by_id_when_same_size") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("tB", Bytes(32, 1), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("tA", Bytes(32, 2), MemoryTier::ram).ok());
  SmartOffloadEngine engine(OffloadConfig{.max_actions_per_tick = 1});
  const std::vector<std::string> ids{"tB", "tA"};
  const OffloadPlan plan = engine.plan_with_tick(kRamHot, ids, mem, 1);
  CHECK(plan.actions == std::vector<OffloadAction>{OffloadAction::move_to_ssd("tA")});
}

TEST_CASE("offload_priority: respects_cooldown_even_if_large") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("small", Bytes(8, 1), MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("large", Bytes(80, 2), MemoryTier::ram).ok());
  SmartOffloadEngine engine(OffloadConfig{.max_actions_per_tick = 1});
  const std::vector<std::string> ids{"small", "large"};
  // Planning only: the large tensor stays in RAM, yet cooldown keeps it out at tick 12.
  CHECK(engine.plan_with_tick(kRamHot, ids, mem, 10).actions ==
        std::vector<OffloadAction>{OffloadAction::move_to_ssd("large")});
  const OffloadPlan second = engine.plan_with_tick(kRamHot, ids, mem, 12);
  CHECK(second.actions == std::vector<OffloadAction>{OffloadAction::move_to_ssd("small")});
  CHECK(second.reason == "RAM pressure high; some tensors skipped due to cooldown; Priority offloading enabled; selected 1/1");
}

TEST_CASE("offload_priority: reason_includes_priority_summary") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("v1", 10, MemoryTier::vram);
  mem.register_tensor("r1", 20, MemoryTier::ram);
  mem.register_tensor("s1", 30, MemoryTier::ssd);
  SmartOffloadEngine engine;
  const std::vector<std::string> ids{"v1", "r1", "s1"};
  const OffloadPlan plan = engine.plan_with_tick(pressure_snapshot(0.99F, 0.99F), ids, mem, 0);
  CHECK(plan.reason.find("Priority offloading enabled") != std::string::npos);
  CHECK(plan.reason.find("selected 2/2") != std::string::npos);
  CHECK(plan.reason.starts_with("VRAM and RAM pressure high"));
  CHECK(plan.actions ==
        std::vector<OffloadAction>{OffloadAction::move_to_ssd("r1"), OffloadAction::move_to_ssd("v1")});
}

TEST_CASE("offload_priority: no candidates means no priority summary") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("s1", 30, MemoryTier::ssd);
  SmartOffloadEngine engine;
  const std::vector<std::string> ids{"s1"};
  CHECK(engine.plan_with_tick(kRamHot, ids, mem, 0).reason == "RAM pressure high but no offloadable tensors in RAM");
}
