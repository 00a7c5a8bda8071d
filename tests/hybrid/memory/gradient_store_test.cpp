// APX 13.8.2: the gradient store on its own, without a memory manager.
#include <doctest/doctest.h>

#include "hybrid/memory/gradient_store.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("gradient_store: without a cache persist and restore fail with Io") {
  GradientStore g;
  auto put = g.persist("g", std::vector<std::uint8_t>{1}, 0, true);
  REQUIRE_FALSE(put.ok());
  CHECK(put.error().kind() == CacheFailure::io);
  CHECK(put.error().message() == kErrPersistentCacheNotAttached);
  CHECK_FALSE(g.contains("g"));
  CHECK(g.restore("g").error().kind() == CacheFailure::io);
}

TEST_CASE("gradient_store: a noted key restores what another store persisted") {
  testsupport::TempDir dir;
  GradientStore writer;
  writer.attach_cache(PersistentHybridCache(dir.file("pc")));
  REQUIRE(writer.persist("g", std::vector<std::uint8_t>{4, 5}, 0, true).ok());
  GradientStore reader;
  reader.attach_cache(PersistentHybridCache(dir.file("pc")));
  CHECK(reader.restore("g").error().kind() == CacheFailure::not_found);
  reader.note_key("g", *writer.key_of("g"));
  CHECK(reader.contains("g"));
  CHECK(*reader.restore("g") == std::vector<std::uint8_t>{4, 5});
}
