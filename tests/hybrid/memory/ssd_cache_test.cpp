// APX 13.2.1: SSD blob helpers.
#include "hybrid/memory/ssd_cache.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "memory_test_support.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("ssd_cache: blob_path keeps safe ids and disambiguates sanitized ones") {
  SsdCache cache("/c");
  CHECK(cache.blob_path("layer_1-w") == "/c/tensor_layer_1-w.bin");
  const std::string slash = cache.blob_path("a/b");
  const std::string under = cache.blob_path("a_b");
  CHECK(under == "/c/tensor_a_b.bin");
  CHECK(slash == "/c/tensor_a.2fb.bin");
  // The ids of issue 11 that used to share one spill file.
  CHECK(cache.blob_path("a:b") != cache.blob_path("a_b-08bd8540"));
  CHECK(cache.blob_path(std::string(300, 'x')).size() < 250);
  CHECK(cache.blob_path(std::string(300, 'x')) != cache.blob_path(std::string(301, 'x')));
  CHECK(slash != under);
  CHECK(cache.blob_path("../x").find("..") == std::string::npos);
}

TEST_CASE("ssd_cache: ensure_dir rejects an empty path and a path that is a file") {
  CHECK(testsupport::error_text(SsdCache("").ensure_dir().error()) ==
        "invalid_argument: SSD cache directory path is empty");
  testsupport::TempDir dir;
  memory_test::write_file(dir.file("plain"), {1});
  auto r = SsdCache(dir.file("plain")).ensure_dir();
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
  CHECK(r.error().message().find("plain") != std::string::npos);
}

TEST_CASE("ssd_cache: write, read and delete a raw blob; missing files") {
  testsupport::TempDir dir;
  SsdCache cache(dir.file("c"));
  REQUIRE(cache.ensure_dir().ok());
  const std::string p = cache.blob_path("x");
  REQUIRE(cache.write_blob(p, memory_test::pattern(5)).ok());
  CHECK(*cache.read_blob(p) == memory_test::pattern(5));
  REQUIRE(cache.delete_blob(p).ok());
  CHECK(cache.delete_blob(p).ok());  // missing is success
  auto missing = cache.read_blob(p);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == common::ErrorCode::io);
}

TEST_CASE("ssd_cache: a flipped byte in an uncompressed blob is caught by its CRC") {
  testsupport::TempDir dir;
  SsdCache cache(dir.file("c"));
  REQUIRE(cache.ensure_dir().ok());
  const std::string p = cache.blob_path("x");
  auto meta = cache.write_blob(p, memory_test::pattern(64), CompressionKind::none);
  REQUIRE(meta.ok());
  REQUIRE(meta->crc32c.has_value());
  Bytes raw = memory_test::read_file(p);
  raw[10] ^= 0x01;
  memory_test::write_file(p, raw);
  auto r = cache.read_blob_with_meta(p, *meta);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("CRC-32C mismatch") != std::string::npos);
}
