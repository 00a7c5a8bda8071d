// APX 13.2.0: logical registry and move planning.
#include <doctest/doctest.h>

#include <filesystem>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "memory_test_support.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("hybrid_memory: register and query tier") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("t1", 1024, MemoryTier::vram);
  CHECK(mem.get_tier("t1") == MemoryTier::vram);
  CHECK(mem.tensor_len_bytes("t1") == std::optional<std::size_t>(1024));
  CHECK(std::holds_alternative<NoBacking>(*mem.backing("t1")));
  CHECK_FALSE(mem.get_tier("nope").has_value());
  CHECK_FALSE(mem.tensor_len_bytes("nope").has_value());
}

TEST_CASE("hybrid_memory: plan and apply move vram to ram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("t1", 1024, MemoryTier::vram);
  auto plan = mem.plan_move("t1", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  CHECK(plan->from == MemoryTier::vram);
  CHECK(plan->to == MemoryTier::ram);
  REQUIRE(mem.apply_move("t1", *plan).ok());
  CHECK(mem.get_tier("t1") == MemoryTier::ram);
}

TEST_CASE("hybrid_memory: plan to ssd ensures cache dir") {
  testsupport::TempDir dir;
  const std::string cache = dir.file("atenia_cache_test");
  HybridMemoryManager mem(cache);
  REQUIRE(mem.register_tensor_with_data("t1", memory_test::pattern(16), MemoryTier::ram).ok());
  CHECK_FALSE(std::filesystem::exists(cache));
  auto plan = mem.plan_move("t1", MemoryTier::ssd, empty_memory_snapshot());
  REQUIRE(plan.ok());
  CHECK(plan->to == MemoryTier::ssd);
  CHECK(std::filesystem::is_directory(cache));
}

TEST_CASE("hybrid_memory: already in target tier is ok") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("t1", 8, MemoryTier::ram);
  auto plan = mem.plan_move("t1", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  CHECK(plan->reason == "Already in target tier");
  CHECK(plan->from == MemoryTier::ram);
  CHECK(plan->to == MemoryTier::ram);
}

TEST_CASE("hybrid_memory: unknown tensor returns error from plan, apply and remove") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  auto plan = mem.plan_move("ghost", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE_FALSE(plan.ok());
  CHECK(testsupport::error_text(plan.error()) == "invalid_argument: Tensor not registered");
  auto applied = mem.apply_move("ghost", MovePlan{MemoryTier::ram, MemoryTier::ssd, "x"});
  REQUIRE_FALSE(applied.ok());
  CHECK(testsupport::error_text(applied.error()) == "invalid_argument: Tensor not registered");
  CHECK_FALSE(mem.remove_tensor("ghost"));
  CHECK(mem.backing("ghost") == nullptr);
}

TEST_CASE("hybrid_memory: ids_for_checkpoint is sorted and remove_tensor forgets the id") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("b", 1, MemoryTier::ram);
  mem.register_tensor("a", 1, MemoryTier::cpu);
  REQUIRE(mem.register_tensor_with_data("c", memory_test::pattern(4), MemoryTier::ssd).ok());
  const std::string blob = memory_test::ssd_path(mem, "c");
  CHECK(std::filesystem::exists(blob));
  CHECK(mem.ids_for_checkpoint() == std::vector<std::string>{"a", "b", "c"});
  CHECK(mem.remove_tensor("c"));
  CHECK_FALSE(std::filesystem::exists(blob));
  CHECK(mem.ids_for_checkpoint() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("hybrid_memory: placement hints are stored per id") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  CHECK_FALSE(mem.hints().desired_tier("t").has_value());
  mem.hints().set_desired_tier("t", MemoryTier::vram);
  mem.hints().set_last_plan_summary("t", std::string("hot weights"));
  CHECK(mem.hints().desired_tier("t") == MemoryTier::vram);
  CHECK(mem.hints().last_plan_summary("t") == std::optional<std::string>("hot weights"));
  mem.hints().set_desired_tier("t", std::nullopt);
  CHECK_FALSE(mem.hints().desired_tier("t").has_value());
  CHECK(mem.hints().last_plan_summary("t").has_value());
}

TEST_CASE("memory_tier: names round-trip and unknown names are rejected") {
  for (MemoryTier t : {MemoryTier::vram, MemoryTier::ram, MemoryTier::ssd, MemoryTier::cpu}) {
    CHECK(parse_memory_tier(to_string(t)) == t);
  }
  CHECK_FALSE(parse_memory_tier("RAM").has_value());
  CHECK_FALSE(parse_memory_tier("").has_value());
}
