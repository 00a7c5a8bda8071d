// APX 13.8.2 (memory side): gradients persisted under "grad:<id>:len<n>" in the Gradient namespace.
#include <doctest/doctest.h>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("gradient cache: a persisted gradient is read back under its grad key") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"), std::make_unique<FakeVramAdapter>());
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("grad_cache")));
  REQUIRE(mem.register_tensor_with_data("g1", Bytes{9, 8, 7}, MemoryTier::ram).ok());
  REQUIRE(mem.gradients().persist("g1", Bytes{9, 8, 7}, 1, true).ok());
  CHECK(mem.gradients().contains("g1"));
  CHECK_FALSE(mem.gradients().contains("t1"));
  CHECK(mem.persistent_cache()->exists(CacheKind::gradient, "grad:g1:len3"));
  CHECK_FALSE(mem.persistent_cache()->exists(CacheKind::tensor, "grad:g1:len3"));
  REQUIRE(mem.remove_tensor("g1"));
  auto restored = mem.persistent_cache()->get_blob(CacheKind::gradient, "grad:g1:len3");
  REQUIRE(restored.ok());
  CHECK(*restored == Bytes{9, 8, 7});
  // Re-persisting without overwrite is refused; with overwrite it replaces.
  CHECK(mem.gradients().persist("g1", Bytes{9, 8, 7}, 2, false).error().kind() ==
        CacheFailure::already_exists);
  REQUIRE(mem.gradients().persist("g1", Bytes{1, 1, 1}, 2, true).ok());
  CHECK(*mem.persistent_cache()->get_blob(CacheKind::gradient, "grad:g1:len3") == Bytes{1, 1, 1});
}

TEST_CASE("gradient cache: gradients use separate namespace from tensors") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("grad_cache"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "k", Bytes{1, 2, 3}, 0, false).ok());
  REQUIRE(cache.put_blob(CacheKind::gradient, "k", Bytes{4, 5, 6}, 0, false).ok());
  CHECK(cache.exists(CacheKind::tensor, "k"));
  CHECK(cache.exists(CacheKind::gradient, "k"));
  CHECK(*cache.get_blob(CacheKind::tensor, "k") == Bytes{1, 2, 3});
  CHECK(*cache.get_blob(CacheKind::gradient, "k") == Bytes{4, 5, 6});
}

TEST_CASE("gradient cache: persisting without a cache, and unknown gradients") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"));
  const CacheError not_attached = CacheError::io("Persistent cache not attached to HybridMemoryManager");
  CHECK(to_string(mem.gradients().persist("g", Bytes{1}, 0, true).error()) == to_string(not_attached));
  CHECK_FALSE(mem.gradients().contains("g"));
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pc")));
  CHECK(mem.persistent_cache()->get_blob(CacheKind::gradient, "grad:never:len1").error().kind() ==
        CacheFailure::not_found);
  CHECK_FALSE(mem.gradients().contains("never"));
}

TEST_CASE("gradient cache: a corrupted gradient blob is reported, not returned") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("ssd"));
  mem.attach_persistent_cache(PersistentHybridCache(dir.file("pc")));
  REQUIRE(mem.gradients().persist("g", Bytes{1, 2, 3, 4}, 0, true).ok());
  {
    std::FILE* f = std::fopen(mem.persistent_cache()->bin_path(CacheKind::gradient, "grad:g:len4").c_str(), "r+b");
    REQUIRE(f != nullptr);
    std::fputc(0x7F, f);
    std::fclose(f);
  }
  auto r = mem.persistent_cache()->get_blob(CacheKind::gradient, "grad:g:len4");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CacheFailure::corrupt);
}
