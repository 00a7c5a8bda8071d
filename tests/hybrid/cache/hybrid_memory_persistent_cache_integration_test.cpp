// APX 13.8.1: moves to SSD also store the bytes in an attached persistent cache.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {
common::Status move(HybridMemoryManager& mem, const std::string& id, MemoryTier to) {
  auto plan = mem.plan_move(id, to, empty_memory_snapshot());
  if (!plan) return plan.error();
  return mem.apply_move(id, *plan);
}
}  // namespace

TEST_CASE("persistent integration: ram to ssd uses persistent cache when attached") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"), std::make_unique<FakeVramAdapter>());
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pcache")));
  REQUIRE(mem.persistent_cache() != nullptr);
  REQUIRE(mem.register_tensor_with_data("t1", Bytes{1, 2, 3, 4}, MemoryTier::ram).ok());
  REQUIRE(move(mem, "t1", MemoryTier::ssd).ok());
  CHECK(mem.get_tier("t1") == MemoryTier::ssd);
  CHECK(as_ssd(mem.backing("t1")) != nullptr);
  PersistentHybridCache cache(dir.file("pcache"));
  CHECK(cache.exists(CacheKind::tensor, "tensor:t1:len4"));
  auto got = cache.get_blob(CacheKind::tensor, "tensor:t1:len4");
  REQUIRE(got.ok());
  CHECK(*got == Bytes{1, 2, 3, 4});
  CHECK_FALSE(mem.last_persist_error().has_value());
}

TEST_CASE("persistent integration: ssd to ram restores bytes with a cache attached") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"), std::make_unique<FakeVramAdapter>());
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pcache")));
  REQUIRE(mem.register_tensor_with_data("t1", Bytes{1, 2, 3, 4}, MemoryTier::ram).ok());
  REQUIRE(move(mem, "t1", MemoryTier::ssd).ok());
  REQUIRE(move(mem, "t1", MemoryTier::ram).ok());
  CHECK(mem.get_tier("t1") == MemoryTier::ram);
  REQUIRE(as_ram(mem.backing("t1")) != nullptr);
  CHECK(as_ram(mem.backing("t1"))->data == Bytes{1, 2, 3, 4});
}

TEST_CASE("persistent integration: vram to ssd also persists") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"), std::make_unique<FakeVramAdapter>());
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pcache")));
  REQUIRE(mem.register_tensor_with_data("v", Bytes{7, 7}, MemoryTier::vram).ok());
  REQUIRE(move(mem, "v", MemoryTier::ssd).ok());
  CHECK(*mem.persistent_cache()->get_blob(CacheKind::tensor, "tensor:v:len2") == Bytes{7, 7});
}

TEST_CASE("persistent integration: works without cache attached") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"));
  CHECK(mem.persistent_cache() == nullptr);
  REQUIRE(mem.register_tensor_with_data("t2", Bytes{5, 6, 7}, MemoryTier::ram).ok());
  REQUIRE(move(mem, "t2", MemoryTier::ssd).ok());
  REQUIRE(move(mem, "t2", MemoryTier::ram).ok());
  CHECK(as_ram(mem.backing("t2"))->data == Bytes{5, 6, 7});
}

TEST_CASE("persistent integration: an unwritable cache does not block the move and is reported") {
  testsupport::TempDir dir;
  { std::ofstream(dir.file("pcache-file")) << "x"; }
  HybridMemoryManager mem(dir.file("ssd"));
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pcache-file")));
  REQUIRE(mem.register_tensor_with_data("t", Bytes{1}, MemoryTier::ram).ok());
  REQUIRE(move(mem, "t", MemoryTier::ssd).ok());
  CHECK(mem.get_tier("t") == MemoryTier::ssd);
  REQUIRE(mem.last_persist_error().has_value());
  CHECK(mem.last_persist_error()->kind() == CacheFailure::io);
}
