// Issue 23, item 5: hybrid's failures are common::Errors. This pins, for every case of the error
// types they replaced (CodecError, MoveError, PersistError, CacheError, CheckpointError), the
// common::ErrorCode it now carries (atenia's exit code follows it) and the message or label text
// (atenia prints it), so a change to either fails here first.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/cache/cache_types.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/codec/rle_codec.hpp"
#include "hybrid/codec/shuffle_zstd_codec.hpp"
#include "hybrid/learning/trainer_table.hpp"
#include "hybrid/memory/move_error.hpp"
#include "hybrid/memory/ssd_cache.hpp"
#include "hybrid/memory/vram_adapter.hpp"
#include "support/error_text.hpp"
#include "support/temp_dir.hpp"

using hybrid::CacheError;
using hybrid::CacheFailure;
using hybrid::CheckpointError;
using hybrid::CheckpointFailure;
using testsupport::error_text;

namespace error_kinds_test {

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace error_kinds_test

TEST_CASE("error_kinds: codec (was CodecError) -- a bad stream is malformed, a bad parameter invalid_argument") {
  const std::vector<std::uint8_t> odd{1};
  auto rle = hybrid::rle_decompress(odd, hybrid::CompressionMeta{hybrid::CompressionKind::rle, 1, 0, std::nullopt});
  REQUIRE_FALSE(rle.ok());
  CHECK(error_text(rle.error()) == "malformed: Invalid RLE stream: odd length 1");

  auto blob = hybrid::shuffle_zstd_decompress(std::vector<std::uint8_t>{1, 2, 3},
                                              hybrid::CompressionMeta{hybrid::CompressionKind::shuffle_zstd, 3, 1,
                                                                      std::nullopt});
  REQUIRE_FALSE(blob.ok());
  CHECK(error_text(blob.error()) == "malformed: Invalid shuffle_zstd blob: shorter than its header");

  auto width = hybrid::shuffle_zstd_compress(std::vector<std::uint8_t>{1, 2}, 0, 1, nullptr);
  REQUIRE_FALSE(width.ok());
  CHECK(error_text(width.error()) == "invalid_argument: shuffle_zstd: element size 0 is outside 1..65535");
  // Io (zstd cannot allocate or run) is common::Error::io; no input makes zstd fail, so it is not driven here.
}

TEST_CASE("error_kinds: tier moves (was MoveError) -- kind and the label move_error_text writes") {
  // Unsupported -> invalid_argument, labelled "Unsupported".
  auto empty = hybrid::SsdCache("").ensure_dir();
  REQUIRE_FALSE(empty.ok());
  CHECK(error_text(empty.error()) == "invalid_argument: SSD cache directory path is empty");
  CHECK(hybrid::move_error_text(empty.error()) == "Unsupported: SSD cache directory path is empty");

  // A blob that does not decode is a move that cannot be made: the codec's malformed becomes
  // invalid_argument with the codec's message.
  testsupport::TempDir dir;
  hybrid::SsdCache cache(dir.file("spill"));
  REQUIRE(cache.ensure_dir().ok());
  const std::string p = cache.blob_path("x");
  REQUIRE(cache.write_blob(p, hybrid::Bytes{0, 1}).ok());
  auto rle = cache.read_blob_with_meta(p, hybrid::CompressionMeta{hybrid::CompressionKind::rle, 1, 0, std::nullopt});
  REQUIRE_FALSE(rle.ok());
  CHECK(hybrid::move_error_text(rle.error()) == "Unsupported: Invalid RLE stream: zero count at byte 0");
  CHECK(rle.error().code() == common::ErrorCode::invalid_argument);

  // Io -> io, labelled "Io".
  error_kinds_test::write_text(dir.file("plain"), "x");
  auto on_file = hybrid::SsdCache(dir.file("plain")).ensure_dir();
  REQUIRE_FALSE(on_file.ok());
  CHECK(on_file.error().code() == common::ErrorCode::io);
  CHECK(hybrid::move_error_text(on_file.error()).rfind("Io: Cannot create SSD cache directory " + dir.file("plain") + ": ",
                                                       0) == 0);

  // BackendUnavailable -> unsupported, labelled "BackendUnavailable".
  hybrid::NullVramAdapter vram;
  auto up = vram.upload("x", hybrid::Bytes{1});
  REQUIRE_FALSE(up.ok());
  CHECK(error_text(up.error()) == "unsupported: VRAM adapter not available");
  CHECK(hybrid::move_error_text(up.error()) == "BackendUnavailable: VRAM adapter not available");

  // malformed never comes out of a move; were it to, it reads as the move that cannot be made.
  CHECK(hybrid::move_error_text(common::Error::malformed("m")) == "Unsupported: m");
}

TEST_CASE("error_kinds: trainer table (was PersistError) -- Io is io, Format is malformed") {
  testsupport::TempDir dir;
  error_kinds_test::write_text(dir.file("plain"), "x");
  auto saved = hybrid::write_trainer_table(common::real_file_system(), hybrid::TrainerTable{},
                                           dir.file("plain") + "/table.txt");
  REQUIRE_FALSE(saved.ok());
  CHECK(saved.error().code() == common::ErrorCode::io);

  const std::string path = dir.file("table.txt");
  error_kinds_test::write_text(path, "ATENIA_SELFTRAINER_V2\ntable_end;len=99;crc32c=1\n");
  auto loaded = hybrid::read_trainer_table_strict(common::real_file_system(), path);
  REQUIRE_FALSE(loaded.ok());
  CHECK(error_text(loaded.error()) == "malformed: " + path + ":2: length mismatch: trailer says 99 bytes, table has 22");
}

TEST_CASE("error_kinds: persistent cache (was CacheError) -- each failure, its kind and its label") {
  struct Case {
    CacheError error;
    CacheFailure failure;
    common::ErrorCode code;
    const char* text;  // to_string(CacheError)
  };
  const std::vector<Case> cases{
      {CacheError::io("m"), CacheFailure::io, common::ErrorCode::io, "Io: m"},
      {CacheError::not_found("m"), CacheFailure::not_found, common::ErrorCode::invalid_argument, "NotFound: m"},
      {CacheError::corrupt("m"), CacheFailure::corrupt, common::ErrorCode::malformed, "Corrupt: m"},
      {CacheError::already_exists("m"), CacheFailure::already_exists, common::ErrorCode::invalid_argument,
       "AlreadyExists: m"},
      {CacheError::invalid_key("m"), CacheFailure::invalid_key, common::ErrorCode::invalid_argument, "InvalidKey: m"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(c.error.kind() == c.failure);
    CHECK(c.error.code() == c.code);
    CHECK(c.error.message() == "m");
    CHECK(hybrid::to_string(c.error) == c.text);
    // Into a common::Result it keeps kind and message, as the old to_common_error() gave them.
    const common::Status as_status = c.error;
    CHECK(as_status.error().code() == c.code);
    CHECK(as_status.error().message() == "m");
  }
  CHECK(CacheError::not_found().message() == "entry not found");
  CHECK(CacheError::already_exists().message() == "entry already exists");

  // The same cases from the cache itself.
  testsupport::TempDir dir;
  hybrid::PersistentHybridCache cache(dir.file("pc"));
  REQUIRE(cache.ensure_root().ok());
  auto missing = cache.get_blob(hybrid::CacheKind::tensor, "k");
  REQUIRE_FALSE(missing.ok());
  CHECK(hybrid::to_string(missing.error()) ==
        "NotFound: no cache entry tensor/k: " + cache.meta_path(hybrid::CacheKind::tensor, "k") + " is missing");
  CHECK(missing.error().code() == common::ErrorCode::invalid_argument);
  auto bad_key = cache.put_blob(hybrid::CacheKind::tensor, "", hybrid::Bytes{1}, 0, true);
  REQUIRE_FALSE(bad_key.ok());
  CHECK(hybrid::to_string(bad_key.error()) == "InvalidKey: cache key is empty");
  REQUIRE(cache.put_blob(hybrid::CacheKind::tensor, "k", hybrid::Bytes{1}, 0, true).ok());
  auto again = cache.put_blob(hybrid::CacheKind::tensor, "k", hybrid::Bytes{2}, 0, false);
  REQUIRE_FALSE(again.ok());
  CHECK(hybrid::to_string(again.error()) == "AlreadyExists: cache entry tensor/k already exists");
  error_kinds_test::write_text(cache.meta_path(hybrid::CacheKind::tensor, "k"), "kind=tensor\n");
  auto corrupt = cache.get_meta(hybrid::CacheKind::tensor, "k");
  REQUIRE_FALSE(corrupt.ok());
  CHECK(corrupt.error().kind() == CacheFailure::corrupt);
  CHECK(corrupt.error().code() == common::ErrorCode::malformed);
  error_kinds_test::write_text(dir.file("plain"), "x");
  auto on_file = hybrid::PersistentHybridCache(dir.file("plain")).ensure_root();
  REQUIRE_FALSE(on_file.ok());
  CHECK(hybrid::to_string(on_file.error()) == "Io: cache root " + dir.file("plain") + " exists and is not a directory");
  CHECK(on_file.error().code() == common::ErrorCode::io);
}

TEST_CASE("error_kinds: checkpoints (was CheckpointError) -- each failure, its kind, and the cache adapter") {
  CHECK(CheckpointError::io("m").code() == common::ErrorCode::io);
  CHECK(CheckpointError::missing_blob("m").code() == common::ErrorCode::io);
  CHECK(CheckpointError::invalid_format("m").code() == common::ErrorCode::malformed);
  CHECK(std::string(hybrid::to_string(CheckpointFailure::io)) == "Io");
  CHECK(std::string(hybrid::to_string(CheckpointFailure::invalid_format)) == "InvalidFormat");
  CHECK(std::string(hybrid::to_string(CheckpointFailure::missing_blob)) == "MissingBlob");
  CHECK(CheckpointError::missing_blob("m").kind() == CheckpointFailure::missing_blob);
  CHECK(CheckpointError::missing_blob("m").message() == "m");

  // from_cache_error: storage at fault -> missing_blob (io); anything else -> invalid_format (malformed).
  struct Case {
    CacheError from;
    CheckpointFailure to;
    common::ErrorCode code;
    const char* message;
  };
  const std::vector<Case> cases{
      {CacheError::not_found("m"), CheckpointFailure::missing_blob, common::ErrorCode::io, "entry 'a': NotFound: m"},
      {CacheError::io("m"), CheckpointFailure::missing_blob, common::ErrorCode::io, "entry 'a': Io: m"},
      {CacheError::corrupt("m"), CheckpointFailure::invalid_format, common::ErrorCode::malformed,
       "entry 'a': Corrupt: m"},
      {CacheError::already_exists("m"), CheckpointFailure::invalid_format, common::ErrorCode::malformed,
       "entry 'a': AlreadyExists: m"},
      {CacheError::invalid_key("m"), CheckpointFailure::invalid_format, common::ErrorCode::malformed,
       "entry 'a': InvalidKey: m"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    const CheckpointError e = hybrid::from_cache_error(c.from, "a");
    CHECK(e.kind() == c.to);
    CHECK(e.code() == c.code);
    CHECK(e.message() == c.message);
  }

  // The same kinds from the manifest reader.
  testsupport::TempDir dir;
  auto absent = hybrid::read_manifest(common::real_file_system(), dir.path());
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.error().kind() == CheckpointFailure::io);
  CHECK(absent.error().code() == common::ErrorCode::io);
  auto garbage = hybrid::parse_manifest("not a manifest\n", "m.meta");
  REQUIRE_FALSE(garbage.ok());
  CHECK(garbage.error().kind() == CheckpointFailure::invalid_format);
  CHECK(garbage.error().code() == common::ErrorCode::malformed);
}
