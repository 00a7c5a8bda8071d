// Codecs in use: the SSD cache and the memory manager spill, load and reject blobs through them, and
// the per-tensor policy picks one (APX 13.2.3). The codecs alone: tests/hybrid/codec.
#include <doctest/doctest.h>

#include <cmath>

#include "hybrid/codec/byte_shuffle.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/codec/rle_codec.hpp"
#include "hybrid/codec/shuffle_zstd_codec.hpp"
#include "../codec/codec_test_data.hpp"
#include "memory_test_support.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using codec_test::repeated;
using codec_test::smooth_floats;

TEST_CASE("compression: ssd roundtrip with compression meta none") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  const Bytes data = memory_test::pattern(1000);
  REQUIRE(mem.register_tensor_with_data("t", data, MemoryTier::ram).ok());
  REQUIRE(mem.apply_move("t", *mem.plan_move("t", MemoryTier::ssd, empty_memory_snapshot())).ok());
  const auto* ssd = as_ssd(mem.backing("t"));
  REQUIRE(ssd != nullptr);
  REQUIRE(ssd->compression.has_value());
  CHECK(ssd->compression->kind == CompressionKind::none);
  CHECK(ssd->compression->original_bytes == data.size());
  CHECK(memory_test::read_file(ssd->path) == data);  // raw on disk by default
  REQUIRE(mem.apply_move("t", *mem.plan_move("t", MemoryTier::ram, empty_memory_snapshot())).ok());
  CHECK(*memory_test::ram_bytes(mem, "t") == data);
}

TEST_CASE("compression: ssd roundtrip with rle compression") {
  testsupport::TempDir dir;
  SsdCache cache(dir.file("rle"));
  REQUIRE(cache.ensure_dir().ok());
  const Bytes data = repeated();
  const std::string p = cache.blob_path("r");
  auto meta = cache.write_blob(p, data, CompressionKind::rle);
  REQUIRE(meta.ok());
  CHECK(meta->kind == CompressionKind::rle);
  CHECK(memory_test::read_file(p).size() < data.size());
  auto back = cache.read_blob_with_meta(p, *meta);
  REQUIRE(back.ok());
  CHECK(*back == data);
}

TEST_CASE("compression: uncompressed blob with a wrong length is rejected") {
  testsupport::TempDir dir;
  SsdCache cache(dir.file("c"));
  REQUIRE(cache.ensure_dir().ok());
  const std::string p = cache.blob_path("x");
  REQUIRE(cache.write_blob(p, Bytes{1, 2, 3}).ok());
  auto r = cache.read_blob_with_meta(p, CompressionMeta{CompressionKind::none, 4, 0, std::nullopt});
  CHECK(testsupport::error_text(r.error()) ==
        "invalid_argument: Invalid SSD blob: length mismatch for uncompressed data");
}

TEST_CASE("compression: the SSD cache reports codec errors as move errors with the codec's message") {
  testsupport::TempDir dir;
  SsdCache cache(dir.file("c"));
  REQUIRE(cache.ensure_dir().ok());
  const std::string p = cache.blob_path("x");
  REQUIRE(cache.write_blob(p, Bytes{0, 1}).ok());  // a zero count: not an RLE stream
  auto rle = cache.read_blob_with_meta(p, CompressionMeta{CompressionKind::rle, 1, 0, std::nullopt});
  CHECK(testsupport::error_text(rle.error()) == "invalid_argument: Invalid RLE stream: zero count at byte 0");
  auto bad_width = cache.write_blob(p, Bytes{1, 2, 3, 4}, CompressionChoice{CompressionKind::shuffle_zstd, 0, 1});
  REQUIRE_FALSE(bad_width.ok());
  CHECK(bad_width.error().code() == common::ErrorCode::invalid_argument);
  CHECK(bad_width.error().message().find("shuffle_zstd: element size 0") == 0);
}

TEST_CASE("compression_policy: off by default, size threshold, element alignment, per-tensor override") {
  CompressionPolicy off;
  CHECK(off.choose("t", 1u << 30).kind == CompressionKind::none);
  CompressionPolicy on;
  on.default_kind = CompressionKind::shuffle_zstd;
  on.min_bytes = 1024;
  CHECK(on.choose("t", 1023).kind == CompressionKind::none);
  CHECK(on.choose("t", 4096).kind == CompressionKind::shuffle_zstd);
  CHECK(on.choose("t", 4097).kind == CompressionKind::none);  // not whole float32 elements
  on.per_tensor["ids"] = CompressionChoice{CompressionKind::rle, 1, 1};
  CHECK(on.choose("ids", 10).kind == CompressionKind::rle);
}

TEST_CASE("compression: manager spills through the policy and records the codec") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  CompressionPolicy policy;
  policy.default_kind = CompressionKind::shuffle_zstd;
  policy.min_bytes = 1024;
  mem.set_compression_policy(policy);
  const Bytes data = smooth_floats(4096);
  const Bytes small = memory_test::pattern(100);
  REQUIRE(mem.register_tensor_with_data("w", data, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("b", small, MemoryTier::ram).ok());
  for (const char* id : {"w", "b"}) {
    REQUIRE(mem.apply_move(id, *mem.plan_move(id, MemoryTier::ssd, empty_memory_snapshot())).ok());
  }
  const auto* w = as_ssd(mem.backing("w"));
  REQUIRE(w != nullptr);
  CHECK(w->compression->kind == CompressionKind::shuffle_zstd);
  CHECK(memory_test::read_file(w->path).size() < data.size());
  CHECK(as_ssd(mem.backing("b"))->compression->kind == CompressionKind::none);
  for (const char* id : {"w", "b"}) {
    REQUIRE(mem.apply_move(id, *mem.plan_move(id, MemoryTier::ram, empty_memory_snapshot())).ok());
  }
  CHECK(*memory_test::ram_bytes(mem, "w") == data);
  CHECK(*memory_test::ram_bytes(mem, "b") == small);
}

TEST_CASE("compression: a corrupted compressed blob fails the load and the tensor stays on ssd") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.file("cache"));
  CompressionPolicy policy;
  policy.default_kind = CompressionKind::shuffle_zstd;
  policy.min_bytes = 0;
  mem.set_compression_policy(policy);
  REQUIRE(mem.register_tensor_with_data("w", smooth_floats(2048), MemoryTier::ssd).ok());
  const std::string path = memory_test::ssd_path(mem, "w");
  Bytes raw = memory_test::read_file(path);
  raw[raw.size() - 3] ^= 0xFF;
  memory_test::write_file(path, raw);
  auto r = mem.apply_move("w", MovePlan{MemoryTier::ssd, MemoryTier::ram, "load"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().message().find("Invalid shuffle_zstd blob") != std::string::npos);
  CHECK(mem.get_tier("w") == MemoryTier::ssd);
}

