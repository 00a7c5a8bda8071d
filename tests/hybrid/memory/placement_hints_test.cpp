// APX 13.9.1: placement hints on their own, and forgotten with the tensor they describe.
#include <doctest/doctest.h>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/placement_hints.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("placement_hints: the two hints of an id are independent; erase forgets both") {
  PlacementHints h;
  h.set_last_plan_summary("a", std::string("spilled"));
  CHECK_FALSE(h.desired_tier("a").has_value());
  h.set_desired_tier("a", MemoryTier::ssd);
  h.set_desired_tier("b", MemoryTier::ram);
  CHECK(h.desired_tier("a") == MemoryTier::ssd);
  CHECK(h.last_plan_summary("a") == std::optional<std::string>("spilled"));
  h.erase("a");
  CHECK_FALSE(h.desired_tier("a").has_value());
  CHECK_FALSE(h.last_plan_summary("a").has_value());
  CHECK(h.desired_tier("b") == MemoryTier::ram);
  h.erase("never-set");  // no-op
}

TEST_CASE("placement_hints: remove_tensor drops the tensor's hints") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("t", 4, MemoryTier::ram);
  mem.hints().set_desired_tier("t", MemoryTier::vram);
  REQUIRE(mem.remove_tensor("t"));
  CHECK_FALSE(mem.hints().desired_tier("t").has_value());
}
