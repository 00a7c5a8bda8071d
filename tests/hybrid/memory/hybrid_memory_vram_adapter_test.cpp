// APX 13.2.2: VRAM backing through an adapter, degrading to RAM without one.
#include <doctest/doctest.h>

#include <filesystem>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "memory_test_support.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using memory_test::pattern;

namespace {
struct VramFixture {
  testsupport::TempDir dir;
  FakeVramAdapter* fake;
  HybridMemoryManager mem;
  VramFixture() : VramFixture(std::make_unique<FakeVramAdapter>()) {}
  explicit VramFixture(std::unique_ptr<FakeVramAdapter> a) : fake(a.get()), mem(dir.file("cache"), std::move(a)) {}
  common::Status move(const std::string& id, MemoryTier to) {
    auto plan = mem.plan_move(id, to, empty_memory_snapshot());
    if (!plan) return plan.error();
    return mem.apply_move(id, *plan);
  }
};
}  // namespace

TEST_CASE("hybrid_memory vram: ram to vram and back roundtrip") {
  VramFixture f;
  const Bytes data = pattern(300);
  REQUIRE(f.mem.register_tensor_with_data("t", data, MemoryTier::ram).ok());
  REQUIRE(f.move("t", MemoryTier::vram).ok());
  CHECK(f.mem.get_tier("t") == MemoryTier::vram);
  REQUIRE(as_vram(f.mem.backing("t")) != nullptr);
  CHECK(as_vram(f.mem.backing("t"))->key == "t");
  CHECK(f.fake->holds("t"));
  REQUIRE(f.move("t", MemoryTier::ram).ok());
  CHECK(f.mem.get_tier("t") == MemoryTier::ram);
  REQUIRE(memory_test::ram_bytes(f.mem, "t") != nullptr);
  CHECK(*memory_test::ram_bytes(f.mem, "t") == data);
  CHECK_FALSE(f.fake->holds("t"));  // freed after download
}

TEST_CASE("hybrid_memory vram: ssd to vram via fake adapter") {
  VramFixture f;
  const Bytes data = pattern(123, 9);
  REQUIRE(f.mem.register_tensor_with_data("s", data, MemoryTier::ssd).ok());
  const std::string blob = memory_test::ssd_path(f.mem, "s");
  REQUIRE(f.move("s", MemoryTier::vram).ok());
  CHECK(f.mem.get_tier("s") == MemoryTier::vram);
  CHECK(as_vram(f.mem.backing("s")) != nullptr);
  CHECK_FALSE(std::filesystem::exists(blob));
  REQUIRE(f.move("s", MemoryTier::ram).ok());
  REQUIRE(memory_test::ram_bytes(f.mem, "s") != nullptr);
  CHECK(*memory_test::ram_bytes(f.mem, "s") == data);
}

TEST_CASE("hybrid_memory vram: vram to ssd writes the blob and frees vram") {
  VramFixture f;
  const Bytes data = pattern(64);
  REQUIRE(f.mem.register_tensor_with_data("v", data, MemoryTier::vram).ok());
  CHECK(f.mem.get_tier("v") == MemoryTier::vram);
  REQUIRE(f.move("v", MemoryTier::ssd).ok());
  CHECK(f.mem.get_tier("v") == MemoryTier::ssd);
  CHECK_FALSE(f.fake->holds("v"));
  REQUIRE(f.move("v", MemoryTier::ram).ok());
  CHECK(*memory_test::ram_bytes(f.mem, "v") == data);
}

TEST_CASE("hybrid_memory vram: vram unavailable degrades to ram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  const Bytes data = pattern(40);
  REQUIRE(mem.register_tensor_with_data("t", data, MemoryTier::ram).ok());
  auto plan = mem.plan_move("t", MemoryTier::vram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  CHECK(plan->to == MemoryTier::ram);
  CHECK(plan->reason.find("VRAM unavailable") != std::string::npos);
  REQUIRE(mem.apply_move("t", *plan).ok());
  CHECK(mem.get_tier("t") == MemoryTier::ram);
  REQUIRE(memory_test::ram_bytes(mem, "t") != nullptr);
  CHECK(*memory_test::ram_bytes(mem, "t") == data);
  // Even a forced plan to VRAM leaves the bytes in RAM.
  REQUIRE(mem.apply_move("t", MovePlan{MemoryTier::ram, MemoryTier::vram, "forced"}).ok());
  CHECK(mem.get_tier("t") == MemoryTier::ram);
  // Registering straight into VRAM degrades too, keeping the bytes.
  REQUIRE(mem.register_tensor_with_data("u", data, MemoryTier::vram).ok());
  CHECK(mem.get_tier("u") == MemoryTier::ram);
  CHECK(*memory_test::ram_bytes(mem, "u") == data);
}

TEST_CASE("hybrid_memory vram: null adapter refuses every call") {
  NullVramAdapter null;
  CHECK_FALSE(null.is_available());
  const std::string expected = "unsupported: VRAM adapter not available";
  CHECK(testsupport::error_text(null.upload("x", Bytes{1}).error()) == expected);
  CHECK(testsupport::error_text(null.download("x").error()) == expected);
  CHECK(testsupport::error_text(null.free("x").error()) == expected);
}

TEST_CASE("hybrid_memory vram: a failed upload leaves the tensor in ram with its bytes") {
  VramFixture f;
  const Bytes data = pattern(50);
  REQUIRE(f.mem.register_tensor_with_data("t", data, MemoryTier::ram).ok());
  f.fake->fail_next_upload();
  auto r = f.move("t", MemoryTier::vram);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::unsupported);
  CHECK(f.mem.get_tier("t") == MemoryTier::ram);
  CHECK(*memory_test::ram_bytes(f.mem, "t") == data);
}

TEST_CASE("hybrid_memory vram: a lost vram buffer is an error and the tensor stays in vram") {
  VramFixture f;
  REQUIRE(f.mem.register_tensor_with_data("t", pattern(8), MemoryTier::vram).ok());
  REQUIRE(f.fake->free("t").ok());  // the device lost it behind our back
  auto r = f.move("t", MemoryTier::ram);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::unsupported);
  CHECK(f.mem.get_tier("t") == MemoryTier::vram);
}
