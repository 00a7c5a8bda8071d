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
    REQUIRE(clean.put_blob(CacheKind::tensor, "k", old_bytes, 1, false).ok());
    common::FaultInjectingFileSystem fs(common::real_file_system());
    PersistentHybridCache faulty(dir.file("c"), fs);
    fs.fail_at(n);
    auto r = faulty.put_blob(CacheKind::tensor, "k", new_bytes, 2, true);
    if (!fs.fired()) {
      REQUIRE(r.ok());
      CHECK(*clean.get_blob(CacheKind::tensor, "k") == new_bytes);
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind() == CacheFailure::io);
    auto got = clean.get_blob(CacheKind::tensor, "k");
    REQUIRE(got.ok());
    const bool is_old = *got == old_bytes;
    const bool is_new = *got == new_bytes;
    CHECK((is_old || is_new));
    saw_old += is_old;
    saw_new += is_new;
    CHECK(clean.exists(CacheKind::tensor, "k"));
    // A third version written after the failure wins cleanly.
    const Bytes third = fill(300, 0x33);
    REQUIRE(clean.put_blob(CacheKind::tensor, "k", third, 3, true).ok());
    CHECK(*clean.get_blob(CacheKind::tensor, "k") == third);
    CHECK(clean.get_meta(CacheKind::tensor, "k")->created_unix == 3);
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
    auto r = faulty.put_blob(CacheKind::gradient, "g", bytes, 9, false);
    if (!fs.fired()) {
      REQUIRE(r.ok());
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(r.ok());
    auto got = clean.get_blob(CacheKind::gradient, "g");
    if (got.ok()) {
      CHECK(*got == bytes);
      CHECK(clean.exists(CacheKind::gradient, "g"));
    } else {
      CHECK(got.error().kind() == CacheFailure::not_found);
      CHECK_FALSE(clean.exists(CacheKind::gradient, "g"));
      // Not committed: a put without overwrite is allowed and succeeds.
      REQUIRE(clean.put_blob(CacheKind::gradient, "g", bytes, 9, false).ok());
      CHECK(*clean.get_blob(CacheKind::gradient, "g") == bytes);
    }
  }
}

TEST_CASE("persistent_cache faults: a second failing replace after an interrupted one stays old-or-new") {
  const Bytes v0 = fill(100, 0x01), v1 = fill(200, 0x02), v2 = fill(300, 0x03);
  for (std::uint64_t first = 1;; ++first) {
    bool first_fired = false;
    for (std::uint64_t second = 1;; ++second) {
      testsupport::TempDir dir;
      PersistentHybridCache clean(dir.file("c"));
      REQUIRE(clean.put_blob(CacheKind::tensor, "k", v0, 0, false).ok());
      common::FaultInjectingFileSystem fs(common::real_file_system());
      PersistentHybridCache faulty(dir.file("c"), fs);
      fs.fail_at(first);
      (void)faulty.put_blob(CacheKind::tensor, "k", v1, 1, true);
      first_fired = fs.fired();
      if (!first_fired) break;
      auto after_first = clean.get_blob(CacheKind::tensor, "k");
      REQUIRE(after_first.ok());
      // fired() is sticky, so the second failure gets its own fault injector.
      common::FaultInjectingFileSystem fs2(common::real_file_system());
      PersistentHybridCache faulty2(dir.file("c"), fs2);
      fs2.fail_at(second);
      (void)faulty2.put_blob(CacheKind::tensor, "k", v2, 2, true);
      const bool second_fired = fs2.fired();
      CAPTURE(first);
      CAPTURE(second);
      auto got = clean.get_blob(CacheKind::tensor, "k");
      REQUIRE(got.ok());
      // Old is whatever the first failure left; new is v2.
      CHECK((*got == *after_first || *got == v2));
      if (!second_fired) break;
    }
    if (!first_fired) break;
  }
}
