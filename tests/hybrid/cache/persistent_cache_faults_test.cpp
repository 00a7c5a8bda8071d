// Crash safety of the persistent cache: fail the Nth write/fsync/rename of a put and check that
// the entry reads back as the old or the new version, never torn; a later put recovers.
#include <doctest/doctest.h>

#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using Bytes = std::vector<std::uint8_t>;

namespace {
Bytes fill(std::size_t n, std::uint8_t v) { return Bytes(n, v); }
}  // namespace

TEST_CASE("persistent_cache faults: replacing an entry leaves old or new at every failure point") {
  const Bytes old_bytes = fill(5000, 0x11);
  const Bytes new_bytes = fill(7000, 0x22);
  std::uint64_t n = 1;
  int saw_old = 0, saw_new = 0;
  for (;; ++n) {
    testsupport::TempDir dir;
    PersistentHybridCache clean(dir.file("c"));
    REQUIRE(clean.put_blob(CacheKind::Tensor, "k", old_bytes, 1, false).ok());
    common::FaultInjectingFileSystem fs(common::real_file_system());
    PersistentHybridCache faulty(dir.file("c"), fs);
    fs.fail_at(n);
    auto r = faulty.put_blob(CacheKind::Tensor, "k", new_bytes, 2, true);
    if (!fs.fired()) {
      REQUIRE(r.ok());
      CHECK(*clean.get_blob(CacheKind::Tensor, "k") == new_bytes);
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == CacheError::Kind::Io);
    auto got = clean.get_blob(CacheKind::Tensor, "k");
    REQUIRE(got.ok());
    const bool is_old = *got == old_bytes;
    const bool is_new = *got == new_bytes;
    CHECK((is_old || is_new));
    saw_old += is_old;
    saw_new += is_new;
    CHECK(clean.exists(CacheKind::Tensor, "k"));
    // A third version written after the failure wins cleanly.
    const Bytes third = fill(300, 0x33);
    REQUIRE(clean.put_blob(CacheKind::Tensor, "k", third, 3, true).ok());
    CHECK(*clean.get_blob(CacheKind::Tensor, "k") == third);
    CHECK(clean.get_meta(CacheKind::Tensor, "k")->created_unix == 3);
  }
  CHECK(n > 8);       // two atomic writes, a rename and a dir sync were all failed once
  CHECK(saw_old > 0);  // failures before the commit point
  CHECK(saw_new > 0);  // failures after it
}

TEST_CASE("persistent_cache faults: a first write leaves nothing or the new entry") {
  const Bytes bytes = fill(4096, 0x5A);
  for (std::uint64_t n = 1;; ++n) {
    testsupport::TempDir dir;
    common::FaultInjectingFileSystem fs(common::real_file_system());
    PersistentHybridCache faulty(dir.file("c"), fs);
    PersistentHybridCache clean(dir.file("c"));
    fs.fail_at(n);
    auto r = faulty.put_blob(CacheKind::Gradient, "g", bytes, 9, false);
    if (!fs.fired()) {
      REQUIRE(r.ok());
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(r.ok());
    auto got = clean.get_blob(CacheKind::Gradient, "g");
    if (got.ok()) {
      CHECK(*got == bytes);
      CHECK(clean.exists(CacheKind::Gradient, "g"));
    } else {
      CHECK(got.error().kind == CacheError::Kind::NotFound);
      CHECK_FALSE(clean.exists(CacheKind::Gradient, "g"));
      // Not committed: a put without overwrite is allowed and succeeds.
      REQUIRE(clean.put_blob(CacheKind::Gradient, "g", bytes, 9, false).ok());
      CHECK(*clean.get_blob(CacheKind::Gradient, "g") == bytes);
    }
  }
}
