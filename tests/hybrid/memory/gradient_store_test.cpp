// APX 13.8.2: the gradient store on its own, without a memory manager.
#include <doctest/doctest.h>

#include "hybrid/memory/gradient_store.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("gradient_store: without a cache persist fails with Io") {
  GradientStore g;
  auto put = g.persist("g", std::vector<std::uint8_t>{1}, 0, true);
  REQUIRE_FALSE(put.ok());
  CHECK(put.error().kind() == CacheFailure::io);
  CHECK(put.error().message() == kErrPersistentCacheNotAttached);
  CHECK_FALSE(g.contains("g"));
}

TEST_CASE("gradient_store: a gradient persisted by one store is listed by another once restored") {
  testsupport::TempDir dir;
  GradientStore writer;
  writer.attach_cache(PersistentHybridCache(dir.file("pc")));
  REQUIRE(writer.persist("g", std::vector<std::uint8_t>{4, 5}, 0, true).ok());
  CHECK(writer.contains("g"));
  GradientStore reader;
  CHECK_FALSE(reader.contains("g"));
  reader.note_restored("g");
  CHECK(reader.contains("g"));
  // A restore reads the bytes through the checkpoint's "grad:" key.
  CHECK(*PersistentHybridCache(dir.file("pc")).get_blob(CacheKind::gradient, gradient_cache_key("g", 2)) ==
        std::vector<std::uint8_t>{4, 5});
}
