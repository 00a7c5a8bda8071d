// APX 13.2.1: RAM buffers and SSD blobs move real bytes.
#include <doctest/doctest.h>

#include <filesystem>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid_memory_manager_test_peer.hpp"
#include "memory_test_support.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using memory_test::pattern;

TEST_CASE("hybrid_memory backed: ram to ssd moves bytes") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  const Bytes data = pattern(4096);
  REQUIRE(mem.register_tensor_with_data("t1", data, MemoryTier::ram).ok());
  auto plan = mem.plan_move("t1", MemoryTier::ssd, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move("t1", *plan).ok());
  CHECK(mem.get_tier("t1") == MemoryTier::ssd);
  const std::string path = memory_test::ssd_path(mem, "t1");
  REQUIRE_FALSE(path.empty());
  CHECK(path == mem.ssd_cache().blob_path("t1"));
  CHECK(std::filesystem::exists(path));
  auto back = mem.ssd_cache().read_blob(path);
  REQUIRE(back.ok());
  CHECK(*back == data);
}

TEST_CASE("hybrid_memory backed: ssd to ram moves bytes and deletes file") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  const Bytes data = pattern(777, 3);
  REQUIRE(mem.register_tensor_with_data("t2", data, MemoryTier::ssd).ok());
  const std::string path = memory_test::ssd_path(mem, "t2");
  REQUIRE(std::filesystem::exists(path));
  auto plan = mem.plan_move("t2", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move("t2", *plan).ok());
  CHECK(mem.get_tier("t2") == MemoryTier::ram);
  const Bytes* ram = memory_test::ram_bytes(mem, "t2");
  REQUIRE(ram != nullptr);
  CHECK(*ram == data);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("hybrid_memory backed: cannot move none backing to ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  mem.register_tensor("t3", 64, MemoryTier::ram);
  auto plan = mem.plan_move("t3", MemoryTier::ssd, empty_memory_snapshot());
  REQUIRE_FALSE(plan.ok());
  CHECK(testsupport::error_text(plan.error()) == "invalid_argument: Cannot move tensor to SSD without backing data");
  // A hand-made plan is refused the same way and changes nothing.
  auto applied = mem.apply_move("t3", MovePlan{MemoryTier::ram, MemoryTier::ssd, "forced"});
  REQUIRE_FALSE(applied.ok());
  CHECK(applied.error().code() == common::ErrorCode::invalid_argument);
  CHECK(mem.get_tier("t3") == MemoryTier::ram);
}

TEST_CASE("hybrid_memory backed: length mismatch is error and the tensor stays on ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  REQUIRE(mem.register_tensor_with_data("t4", pattern(100), MemoryTier::ssd).ok());
  HybridMemoryManagerTestPeer::set_footprint_bytes(mem, "t4", 50);
  auto plan = mem.plan_move("t4", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  auto applied = mem.apply_move("t4", *plan);
  REQUIRE_FALSE(applied.ok());
  CHECK(applied.error().code() == common::ErrorCode::invalid_argument);
  CHECK(applied.error().message().find("Byte length mismatch") != std::string::npos);
  CHECK(mem.get_tier("t4") == MemoryTier::ssd);
  CHECK(std::filesystem::exists(memory_test::ssd_path(mem, "t4")));
}

TEST_CASE("hybrid_memory backed: cpu keeps the ram bytes and logical moves keep the backing") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  const Bytes data = pattern(32);
  REQUIRE(mem.register_tensor_with_data("c", data, MemoryTier::cpu).ok());
  CHECK(mem.get_tier("c") == MemoryTier::cpu);
  REQUIRE(memory_test::ram_bytes(mem, "c") != nullptr);
  // Cpu -> Ssd spills the bytes, Ssd -> Cpu is logical (the blob stays).
  REQUIRE(mem.apply_move("c", MovePlan{MemoryTier::cpu, MemoryTier::ssd, "spill"}).ok());
  CHECK(mem.get_tier("c") == MemoryTier::ssd);
  REQUIRE(mem.apply_move("c", MovePlan{MemoryTier::ssd, MemoryTier::cpu, "logical"}).ok());
  CHECK(mem.get_tier("c") == MemoryTier::cpu);
  CHECK(as_ssd(mem.backing("c")) != nullptr);
  REQUIRE(mem.apply_move("c", MovePlan{MemoryTier::cpu, MemoryTier::ram, "load"}).ok());
  REQUIRE(memory_test::ram_bytes(mem, "c") != nullptr);
  CHECK(*memory_test::ram_bytes(mem, "c") == data);
}

TEST_CASE("hybrid_memory backed: re-registering replaces bytes and removes the old blob") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  REQUIRE(mem.register_tensor_with_data("r", pattern(10), MemoryTier::ssd).ok());
  const std::string blob = memory_test::ssd_path(mem, "r");
  REQUIRE(mem.register_tensor_with_data("r", pattern(20), MemoryTier::ram).ok());
  CHECK_FALSE(std::filesystem::exists(blob));
  CHECK(mem.tensor_len_bytes("r") == std::optional<std::size_t>(20));
  // Same path reused: the new blob must survive.
  REQUIRE(mem.register_tensor_with_data("s", pattern(10), MemoryTier::ssd).ok());
  REQUIRE(mem.register_tensor_with_data("s", pattern(30), MemoryTier::ssd).ok());
  REQUIRE(mem.apply_move("s", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"}).ok());
  CHECK(*memory_test::ram_bytes(mem, "s") == pattern(30));
}
