#include "hybrid/autograd/grad_persistence.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {

struct GradFixture {
  testsupport::TempDir dir;
  HybridMemoryManager mem{dir.file("tiers"), std::make_unique<FakeVramAdapter>()};
  GradFixture() {
    PersistentHybridCache cache(dir.file("grad_cache"));
    REQUIRE(cache.ensure_root().ok());
    mem.attach_persistent_cache(std::move(cache));
  }
};

}  // namespace

TEST_CASE("grad_persistence: persist_and_restore_gradient_roundtrip") {
  GradFixture f;
  REQUIRE(f.mem.register_tensor_with_data("g1", Bytes{9, 8, 7}, MemoryTier::ram).ok());
  const std::vector<std::string> ids{"g1"};
  auto report = persist_grads_after_backward(f.mem, ids, 1);
  REQUIRE(report.ok());
  CHECK(report->saved == 1);
  CHECK(report->skipped == 0);
  REQUIRE(f.mem.persistent_cache() != nullptr);
  CHECK(f.mem.persistent_cache()->exists(CacheKind::gradient, "grad:g1:len3"));
  CHECK_FALSE(f.mem.persistent_cache()->exists(CacheKind::tensor, "grad:g1:len3"));

  REQUIRE(f.mem.remove_tensor("g1"));
  REQUIRE_FALSE(f.mem.get_tier("g1").has_value());
  CHECK(warm_grads_before_backward(f.mem, ids) == 1);
  CHECK(f.mem.get_tier("g1") == MemoryTier::ram);
  const auto* ram = as_ram(f.mem.backing("g1"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == Bytes{9, 8, 7});
  // Already present: warming again restores nothing.
  CHECK(warm_grads_before_backward(f.mem, ids) == 0);
}

TEST_CASE("grad_persistence: persist_moves_vram_grad_to_ram_before_saving") {
  GradFixture f;
  REQUIRE(f.mem.register_tensor_with_data("g2", Bytes{1, 1, 1, 1}, MemoryTier::ram).ok());
  auto plan = f.mem.plan_move("g2", MemoryTier::vram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(f.mem.apply_move("g2", *plan).ok());
  REQUIRE(f.mem.get_tier("g2") == MemoryTier::vram);
  const std::vector<std::string> ids{"g2"};
  auto report = persist_grads_after_backward(f.mem, ids, 2);
  REQUIRE(report.ok());
  CHECK(report->saved == 1);
  CHECK(f.mem.get_tier("g2") == MemoryTier::ram);
  CHECK(f.mem.persistent_cache()->exists(CacheKind::gradient, "grad:g2:len4"));
  auto meta = f.mem.persistent_cache()->get_meta(CacheKind::gradient, "grad:g2:len4");
  REQUIRE(meta.ok());
  CHECK(meta->created_unix == 2);
}

TEST_CASE("grad_persistence: unknown, SSD-resident and byte-less gradients are skipped") {
  GradFixture f;
  f.mem.register_tensor("logical", 4, MemoryTier::ram);
  REQUIRE(f.mem.register_tensor_with_data("on_ssd", Bytes{5, 5}, MemoryTier::ssd).ok());
  const std::vector<std::string> ids{"missing", "logical", "on_ssd"};
  auto report = persist_grads_after_backward(f.mem, ids, 3);
  REQUIRE(report.ok());
  CHECK(*report == GradPersistReport{0, 3});
}

TEST_CASE("grad_persistence: without a persistent cache the cache error is returned") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("g", Bytes{1}, MemoryTier::ram).ok());
  const std::vector<std::string> ids{"g"};
  auto report = persist_grads_after_backward(mem, ids, 1);
  REQUIRE_FALSE(report.ok());
  CHECK(report.error().kind() == CacheFailure::io);
  CHECK(report.error().message() == "Persistent cache not attached to HybridMemoryManager");
  CHECK(warm_grads_before_backward(mem, std::vector<std::string>{"never"}) == 0);
}
