// Moves under I/O faults: fail the Nth mutating filesystem call, for every N a move reaches.
// A failed move returns io and leaves the tensor where it was with its bytes intact.
#include <doctest/doctest.h>

#include <filesystem>

#include "common/file_system.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "memory_test_support.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using memory_test::pattern;

TEST_CASE("hybrid_memory faults: ram to ssd fails cleanly at every step") {
  const Bytes data = pattern(50000);
  std::uint64_t n = 1;
  for (;; ++n) {
    testsupport::TempDir dir;
    common::FaultInjectingFileSystem fs(common::real_file_system());
    HybridMemoryManager mem(dir.file("cache"), fs);
    REQUIRE(mem.register_tensor_with_data("t", data, MemoryTier::ram).ok());
    fs.fail_at(n);
    auto r = mem.apply_move("t", MovePlan{MemoryTier::ram, MemoryTier::ssd, "spill"});
    if (!fs.fired()) {
      REQUIRE(r.ok());
      CHECK(mem.get_tier("t") == MemoryTier::ssd);
      break;
    }
    CAPTURE(n);
    if (r.ok()) {
      // Only the final directory fsync can fail after the blob is in place; the move is done.
      CHECK(mem.get_tier("t") == MemoryTier::ssd);
    } else {
      CHECK(r.error().code() == common::ErrorCode::io);
      CHECK(mem.get_tier("t") == MemoryTier::ram);
      REQUIRE(memory_test::ram_bytes(mem, "t") != nullptr);
      CHECK(*memory_test::ram_bytes(mem, "t") == data);
      // The same move succeeds once the fault is gone.
      fs.fail_at(0);
      REQUIRE(mem.apply_move("t", MovePlan{MemoryTier::ram, MemoryTier::ssd, "spill"}).ok());
    }
    fs.fail_at(0);
    REQUIRE(mem.apply_move("t", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"}).ok());
    CHECK(*memory_test::ram_bytes(mem, "t") == data);
  }
  CHECK(n > 4);  // create, append, sync, rename, sync_dir were all exercised
}

TEST_CASE("hybrid_memory faults: ssd to ram fails cleanly and keeps the blob") {
  const Bytes data = pattern(9000, 1);
  std::uint64_t n = 1;
  for (;; ++n) {
    testsupport::TempDir dir;
    common::FaultInjectingFileSystem fs(common::real_file_system());
    HybridMemoryManager mem(dir.file("cache"), fs);
    REQUIRE(mem.register_tensor_with_data("t", data, MemoryTier::ssd).ok());
    fs.fail_at(n);
    auto r = mem.apply_move("t", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"});
    if (!fs.fired()) {
      REQUIRE(r.ok());
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code() == common::ErrorCode::io);
    CHECK(mem.get_tier("t") == MemoryTier::ssd);
    CHECK(std::filesystem::exists(memory_test::ssd_path(mem, "t")));
    fs.fail_at(0);
    REQUIRE(mem.apply_move("t", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"}).ok());
    CHECK(*memory_test::ram_bytes(mem, "t") == data);
  }
  CHECK(n >= 2);
}

TEST_CASE("hybrid_memory faults: registering into ssd fails without registering") {
  const Bytes data = pattern(2000);
  for (std::uint64_t n = 1;; ++n) {
    testsupport::TempDir dir;
    common::FaultInjectingFileSystem fs(common::real_file_system());
    HybridMemoryManager mem(dir.file("cache"), fs);
    mem.register_tensor("t", 5, MemoryTier::cpu);  // an older registration that must survive
    fs.fail_at(n);
    auto r = mem.register_tensor_with_data("t", data, MemoryTier::ssd);
    if (!fs.fired()) {
      REQUIRE(r.ok());
      break;
    }
    CAPTURE(n);
    if (!r.ok()) {
      CHECK(r.error().code() == common::ErrorCode::io);
      CHECK(mem.get_tier("t") == MemoryTier::cpu);
      CHECK(mem.tensor_len_bytes("t") == std::optional<std::size_t>(5));
    }
  }
}

TEST_CASE("hybrid_memory faults: a vanished blob is an Io and the tensor stays on ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  REQUIRE(mem.register_tensor_with_data("t", pattern(10), MemoryTier::ssd).ok());
  std::filesystem::remove(memory_test::ssd_path(mem, "t"));
  auto r = mem.apply_move("t", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
  CHECK(mem.get_tier("t") == MemoryTier::ssd);
}
