#include "hybrid/checkpoint/manifest_format.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "hybrid/format/text_trailer.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {

HybridCheckpoint sample() {
  HybridCheckpoint cp;
  cp.created_unix = 42;
  CheckpointEntry a;
  a.id = "w1";
  a.tier = MemoryTier::ssd;
  a.len_bytes = 16;
  a.cache_kind = CacheKind::tensor;
  a.cache_key = "tensor:w1:len16";
  a.desired_tier = MemoryTier::ram;
  a.last_plan_summary = "spilled under pressure";
  CheckpointEntry g;
  g.id = "w1.grad";
  g.is_grad = true;
  g.tier = MemoryTier::cpu;
  cp.entries = {a, g};
  return cp;
}

std::string error_of(const std::string& text) {
  auto r = parse_manifest(text, "m");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::invalid_format);
  return r.error().message();
}

const std::string kHead = "version=1\ncreated_unix=1\nentry_count=1\n\n";
const std::string kEntry = "id=a\nis_grad=0\ntier=ram\nlen=1\ncache_kind=none\ncache_key=none\n";

}  // namespace

TEST_CASE("manifest_format: the written form, byte for byte") {
  auto text = format_manifest(sample());
  REQUIRE(text.ok());
  const std::string body =
      "version=2\ncreated_unix=42\nentry_count=2\n\n"
      "id=w1\nis_grad=0\ntier=ssd\nlen=16\ncache_kind=tensor\ncache_key=tensor:w1:len16\ndesired_tier=ram\n"
      "plan_summary=spilled under pressure\n\n"
      "id=w1.grad\nis_grad=1\ntier=cpu\nlen=0\ncache_kind=none\ncache_key=none\ndesired_tier=none\nplan_summary=none\n\n";
  CHECK(text.value().starts_with(body));
  CHECK(text.value().substr(body.size()).starts_with("manifest_len=" + std::to_string(body.size()) +
                                                     "\nmanifest_crc32c="));
  CHECK(text.value().find("checksum32") == std::string::npos);
  auto back = parse_manifest(text.value(), "m");
  REQUIRE(back.ok());
  CHECK(back.value() == sample());
}

TEST_CASE("manifest_format: strict parser names the line") {
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=gpu\nlen=1\ncache_kind=none\ncache_key=none\n") ==
        "m:7: tier must be ram, ssd, vram or cpu, got 'gpu'");
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=ram\nlen=1\ncache_kind=blob\ncache_key=k\n") ==
        "m:9: cache_kind must be tensor, gradient, kernel_meta or none, got 'blob'");
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=ram\nlen=1\ncache_kind=tensor\ncache_key=none\n") ==
        "m:10: cache_kind and cache_key must both be none or both be set");
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=ram\ncache_kind=none\ncache_key=none\n") == "m:5: missing key 'len'");
  CHECK(error_of(kHead + kEntry + "colour=blue\n") == "m:11: unknown key 'colour'");
  CHECK(error_of("version=1\ncreated_unix=1\nentry_count=2\n\n" + kEntry) ==
        "m:1: entry_count says 2 but the manifest has 1 entries");
  CHECK(error_of("version=3\ncreated_unix=1\nentry_count=0\n") ==
        "m:1: unsupported manifest version 3; expected 2 (or 1)");
  CHECK(error_of(kHead + "garbage line\n") == "m:5: expected key=value, got 'garbage line'");
  CHECK(error_of("version=1\ncreated_unix=1\nentry_count=2\n\n" + kEntry + "\n" + kEntry) ==
        "m:12: id 'a' appears twice");
  CHECK(error_of(kHead + "id=a\nis_grad=yes\ntier=ram\nlen=1\ncache_kind=none\ncache_key=none\n") ==
        "m:6: is_grad must be 0 or 1, got 'yes'");
  CHECK(error_of("") == "m:1: empty manifest; expected a header block with version, created_unix, entry_count");
}

TEST_CASE("manifest_format: a len over the blob limit is refused, so inspect and restore agree") {
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=ram\nlen=4611686018427387904\ncache_kind=none\ncache_key=none\n") ==
        "m:8: len must be at most 1073741824 (the largest blob), got '4611686018427387904'");
  CHECK(error_of(kHead + "id=a\nis_grad=0\ntier=cpu\nlen=1073741825\ncache_kind=none\ncache_key=none\n") ==
        "m:8: len must be at most 1073741824 (the largest blob), got '1073741825'");
  auto at_limit = parse_manifest(kHead + "id=a\nis_grad=0\ntier=ram\nlen=1073741824\ncache_kind=none\ncache_key=none\n", "m");
  REQUIRE(at_limit.ok());
  CHECK(at_limit.value().entries.at(0).len_bytes == std::size_t{1} << 30);
}

// A format v1 manifest, byte for byte as the writer before v2 wrote sample(): its trailer is
// FNV-1a, computed outside this code base (Python, offset basis 0x811C9DC5, prime 0x01000193).
const std::string kV1Body =
    "version=1\ncreated_unix=42\nentry_count=2\n\n"
    "id=w1\nis_grad=0\ntier=ssd\nlen=16\ncache_kind=tensor\ncache_key=tensor:w1:len16\ndesired_tier=ram\n"
    "plan_summary=spilled under pressure\n\n"
    "id=w1.grad\nis_grad=1\ntier=cpu\nlen=0\ncache_kind=none\ncache_key=none\ndesired_tier=none\nplan_summary=none\n\n";
const std::string kV1 = kV1Body + "manifest_len=275\nmanifest_checksum32=2153330182\n";

TEST_CASE("manifest_format: a v1 manifest (FNV-1a trailer) still reads and is verified") {
  auto r = parse_manifest(kV1, "m");
  REQUIRE(r.ok());
  HybridCheckpoint expected = sample();
  expected.version = kCheckpointVersionV1;
  CHECK(r.value() == expected);
  // The v1 trailer is checked, not skipped.
  std::string flipped = kV1;
  flipped[flipped.find("len=16") + 4] = '7';
  CHECK(error_of(flipped) == "m:24: checksum mismatch: trailer says 2153330182, manifest hashes to " +
                                 std::to_string(format_checksum(FormatSum::fnv1a, flipped.substr(0, 275))));
  // A v1 header with a v2 trailer (or the reverse) is refused: the checksum names its format.
  std::string v1_with_crc = kV1;
  v1_with_crc.replace(v1_with_crc.find("manifest_checksum32"), 19, "manifest_crc32c");
  CHECK(error_of(v1_with_crc) == "m:24: unknown key 'manifest_crc32c'");
  std::string v2_with_fnv = kV1;
  v2_with_fnv.replace(0, 9, "version=2");
  CHECK(error_of(v2_with_fnv) == "m:24: unknown key 'manifest_checksum32'");
}

TEST_CASE("manifest_format: v2 trailer is CRC-32C of the body") {
  // CRC-32C check value (RFC 3720 / iSCSI): "123456789" -> 0xE3069283.
  CHECK(format_checksum(FormatSum::crc32c, "123456789") == 0xE3069283U);
  const std::string text = format_manifest(sample()).value();
  const std::size_t trailer = text.find("manifest_len=");
  CHECK(text.substr(trailer) == "manifest_len=" + std::to_string(trailer) + "\nmanifest_crc32c=" +
                                    std::to_string(format_checksum(FormatSum::crc32c, text.substr(0, trailer))) + "\n");
}

TEST_CASE("manifest_format: a legacy manifest without hints or trailer parses") {
  auto r = parse_manifest(kHead + kEntry, "m");
  REQUIRE(r.ok());
  CHECK_FALSE(r->entries[0].desired_tier.has_value());
  CHECK_FALSE(r->entries[0].last_plan_summary.has_value());
}

TEST_CASE("manifest_format: a flipped byte or a cut is caught by the trailer") {
  std::string text = format_manifest(sample()).value();
  std::string flipped = text;
  flipped[flipped.find("len=16") + 4] = '7';
  CHECK(error_of(flipped).find("checksum mismatch") != std::string::npos);
  std::string cut = text;
  cut.erase(cut.find("plan_summary=spilled"), 8);
  CHECK(error_of(cut).find("length mismatch") != std::string::npos);
}

TEST_CASE("manifest_format: ids that cannot be one line are refused on write") {
  HybridCheckpoint cp = sample();
  cp.entries[0].id = "two\nlines";
  auto r = format_manifest(cp);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::invalid_format);
}

TEST_CASE("manifest_format: a write failing at any step leaves the old manifest or the new one") {
  testsupport::TempDir dir;
  auto& real = common::real_file_system();
  HybridCheckpoint old_cp = sample();
  old_cp.created_unix = 1;
  REQUIRE(write_manifest(real, dir.path(), old_cp).ok());
  int failures = 0;
  for (std::uint64_t n = 1; n < 50; ++n) {
    common::FaultInjectingFileSystem faulty(real);
    faulty.fail_at(n);
    auto w = write_manifest(faulty, dir.path(), sample());
    auto now = read_manifest(real, dir.path());
    REQUIRE(now.ok());
    CHECK((now.value() == old_cp || now.value() == sample()));
    if (!faulty.fired()) {
      CHECK(w.ok());
      break;
    }
    ++failures;
    REQUIRE(write_manifest(real, dir.path(), old_cp).ok());
  }
  CHECK(failures >= 4);
}

TEST_CASE("manifest_format: a missing manifest is an Io error naming the file") {
  testsupport::TempDir dir;
  auto r = read_manifest(common::real_file_system(), dir.path());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::io);
  CHECK(r.error().message().find(dir.path() + "/checkpoint.meta") != std::string::npos);
}
