// APX 13.8.0: persistent cache API contract and corruption detection.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "hybrid/codec/fnv1a32.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using Bytes = std::vector<std::uint8_t>;

namespace {
std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void spit(const std::string& p, const std::string& s, bool append = false) {
  std::ofstream out(p, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out << s;
}
}  // namespace

TEST_CASE("persistent_cache: put and get roundtrip tensor") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("roundtrip"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "w1", Bytes{1, 2, 3}, 1234, false).ok());
  CHECK(cache.exists(CacheKind::tensor, "w1"));
  auto got = cache.get_blob(CacheKind::tensor, "w1");
  REQUIRE(got.ok());
  CHECK(*got == Bytes{1, 2, 3});
  CHECK(std::filesystem::exists(dir.file("roundtrip/tensor/w1.bin")));
  CHECK(slurp(dir.file("roundtrip/tensor/w1.bin")) == std::string("\x01\x02\x03", 3));
  // Format v2: the payload's CRC-32C, 4046516766 for {1, 2, 3} (computed bitwise in Python,
  // polynomial 0x82F63B78).
  CHECK(slurp(dir.file("roundtrip/tensor/w1.meta")) == "kind=tensor\nlen=3\ncrc32c=4046516766\ncreated_unix=1234\nkey=w1\n");
  auto meta = cache.get_meta(CacheKind::tensor, "w1");
  REQUIRE(meta.ok());
  CHECK(*meta == CacheEntryMeta{CacheKind::tensor, 3, 4046516766U, 1234, std::string("w1"), FormatSum::crc32c});
  CHECK(cache.verify_blob(CacheKind::tensor, "w1").ok());
}

TEST_CASE("persistent_cache: a v1 entry (FNV-1a checksum32 meta, as the writer before v2 wrote it) still reads") {
  testsupport::TempDir dir;
  std::filesystem::create_directories(dir.file("v1/tensor"));
  // FNV-1a of {9, 8, 7, 6} is 1409210349 (computed in Python: basis 0x811C9DC5, prime 0x01000193).
  spit(dir.file("v1/tensor/w1.bin"), std::string("\x09\x08\x07\x06", 4));
  spit(dir.file("v1/tensor/w1.meta"), "kind=tensor\nlen=4\nchecksum32=1409210349\ncreated_unix=5\nkey=w1\n");
  PersistentHybridCache cache(dir.file("v1"));
  auto meta = cache.get_meta(CacheKind::tensor, "w1");
  REQUIRE(meta.ok());
  CHECK(meta->sum == FormatSum::fnv1a);
  auto got = cache.get_blob(CacheKind::tensor, "w1");
  REQUIRE(got.ok());
  CHECK(*got == Bytes{9, 8, 7, 6});
  CHECK(cache.verify_blob(CacheKind::tensor, "w1").ok());
  // The v1 checksum is checked, not skipped: a flipped payload byte is caught by both readers.
  spit(dir.file("v1/tensor/w1.bin"), std::string("\x09\x08\x07\x07", 4));
  CHECK(cache.get_blob(CacheKind::tensor, "w1").error().kind() == CacheFailure::corrupt);
  CHECK(cache.verify_blob(CacheKind::tensor, "w1").error().kind() == CacheFailure::corrupt);
  // Read as CRC-32C, the same v1 number does not verify: the key names the algorithm.
  spit(dir.file("v1/tensor/w1.bin"), std::string("\x09\x08\x07\x06", 4));
  spit(dir.file("v1/tensor/w1.meta"), "kind=tensor\nlen=4\ncrc32c=1409210349\ncreated_unix=5\nkey=w1\n");
  CHECK(cache.get_blob(CacheKind::tensor, "w1").error().kind() == CacheFailure::corrupt);
  // Overwriting the entry writes it as v2.
  REQUIRE(cache.put_blob(CacheKind::tensor, "w1", Bytes{9, 8, 7, 6}, 6, true).ok());
  CHECK(slurp(dir.file("v1/tensor/w1.meta")).find("\ncrc32c=") != std::string::npos);
}

TEST_CASE("persistent_cache: swapped .bin + .meta pairs of equal length are detected (issue 11)") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("swap"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "a", Bytes{1, 2, 3}, 1, false).ok());
  REQUIRE(cache.put_blob(CacheKind::tensor, "b", Bytes{4, 5, 6}, 1, false).ok());
  const auto t = dir.file("swap/tensor/");
  for (const char* ext : {".bin", ".meta"}) {
    std::filesystem::rename(t + "a" + ext, t + "tmp" + ext);
    std::filesystem::rename(t + "b" + ext, t + "a" + ext);
    std::filesystem::rename(t + "tmp" + ext, t + "b" + ext);
  }
  auto got = cache.get_blob(CacheKind::tensor, "a");
  REQUIRE_FALSE(got.ok());
  CHECK(got.error().kind() == CacheFailure::corrupt);
  CHECK(got.error().message().find("belongs to key 'b'") != std::string::npos);
  CHECK_FALSE(cache.verify_blob(CacheKind::tensor, "b").ok());
}

TEST_CASE("persistent_cache: a meta claiming more than the blob limit is refused before reading") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("big"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "w", Bytes{1}, 1, false).ok());
  {
    std::ofstream m(dir.file("big/tensor/w.meta"), std::ios::trunc);
    m << "kind=tensor\nlen=10737418240\nchecksum32=1\ncreated_unix=1\nkey=w\n";
  }
  std::filesystem::resize_file(dir.file("big/tensor/w.bin"), 10737418240ULL);  // sparse
  auto got = cache.get_blob(CacheKind::tensor, "w");
  REQUIRE_FALSE(got.ok());
  CHECK(got.error().message().find("the limit is 1073741824") != std::string::npos);
  CHECK_FALSE(cache.verify_blob(CacheKind::tensor, "w").ok());
}

TEST_CASE("persistent_cache: put rejects overwrite by default, overwrites when asked") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("overwrite"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "k1", Bytes{1}, 1, false).ok());
  const std::string meta_before = slurp(cache.meta_path(CacheKind::tensor, "k1"));
  auto again = cache.put_blob(CacheKind::tensor, "k1", Bytes{2, 2}, 2, false);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().kind() == CacheFailure::already_exists);
  CHECK(slurp(cache.meta_path(CacheKind::tensor, "k1")) == meta_before);
  CHECK(*cache.get_blob(CacheKind::tensor, "k1") == Bytes{1});
  REQUIRE(cache.put_blob(CacheKind::tensor, "k1", Bytes{2, 2}, 2, true).ok());
  CHECK(*cache.get_blob(CacheKind::tensor, "k1") == Bytes{2, 2});
  CHECK_FALSE(std::filesystem::exists(cache.bin_path(CacheKind::tensor, "k1") + ".next"));
}

TEST_CASE("persistent_cache: get detects corruption by length and checksum") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("corrupt"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "c1", Bytes{10, 20, 30, 40}, 5, false).ok());
  const std::string bin = dir.file("corrupt/tensor/c1.bin");
  spit(bin, "x", true);
  auto longer = cache.get_blob(CacheKind::tensor, "c1");
  REQUIRE_FALSE(longer.ok());
  CHECK(longer.error().kind() == CacheFailure::corrupt);
  CHECK(longer.error().message().find("mismatch") != std::string::npos);
  CHECK(longer.error().message().find("length") != std::string::npos);
  spit(bin, std::string("\x0a\x14\x1f\x28", 4));  // same length, one bit flipped
  auto flipped = cache.get_blob(CacheKind::tensor, "c1");
  REQUIRE_FALSE(flipped.ok());
  CHECK(flipped.error().kind() == CacheFailure::corrupt);
  CHECK(flipped.error().message().find("checksum mismatch") != std::string::npos);
}

TEST_CASE("persistent_cache: separate kinds use separate namespaces") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("kinds"));
  REQUIRE(cache.put_blob(CacheKind::tensor, "k", Bytes{1, 2, 3}, 0, false).ok());
  REQUIRE(cache.put_blob(CacheKind::gradient, "k", Bytes{9, 8, 7}, 0, false).ok());
  CHECK(cache.exists(CacheKind::tensor, "k"));
  CHECK(cache.exists(CacheKind::gradient, "k"));
  CHECK_FALSE(cache.exists(CacheKind::kernel_meta, "k"));
  CHECK(*cache.get_blob(CacheKind::tensor, "k") == Bytes{1, 2, 3});
  CHECK(*cache.get_blob(CacheKind::gradient, "k") == Bytes{9, 8, 7});
  CHECK(std::filesystem::is_directory(dir.file("kinds/kernel_meta")));
}

TEST_CASE("persistent_cache: missing entries, bad keys and a root that is a file") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("misc"));
  CHECK(cache.get_blob(CacheKind::tensor, "nope").error().kind() == CacheFailure::not_found);
  CHECK_FALSE(cache.exists(CacheKind::tensor, "nope"));
  for (std::string bad : {std::string(""), std::string(".."), std::string("a/b"), std::string("a\\b"),
                          std::string("a\0b", 3), std::string(201, 'k')}) {
    CAPTURE(bad);
    CHECK(cache.put_blob(CacheKind::tensor, bad, Bytes{1}, 0, false).error().kind() == CacheFailure::invalid_key);
    CHECK(cache.get_blob(CacheKind::tensor, bad).error().kind() == CacheFailure::invalid_key);
    CHECK_FALSE(cache.exists(CacheKind::tensor, bad));
  }
  spit(dir.file("afile"), "not a dir");
  PersistentHybridCache on_file(dir.file("afile"));
  auto r = on_file.put_blob(CacheKind::tensor, "k", Bytes{1}, 0, false);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CacheFailure::io);
  CHECK(r.error().message().find("is not a directory") != std::string::npos);
  CHECK(on_file.ensure_root().error().kind() == CacheFailure::io);
  CHECK(slurp(dir.file("afile")) == "not a dir");
}

TEST_CASE("persistent_cache: missing payload is NotFound, bad meta is Corrupt, remove forgets") {
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("m"));
  REQUIRE(cache.put_blob(CacheKind::gradient, "g", Bytes{4, 5}, 0, false).ok());
  std::filesystem::remove(cache.bin_path(CacheKind::gradient, "g"));
  CHECK_FALSE(cache.exists(CacheKind::gradient, "g"));
  CHECK(cache.get_blob(CacheKind::gradient, "g").error().kind() == CacheFailure::not_found);
  // The message names the missing file, not only the key (a user looks for a file).
  const std::string gone = cache.bin_path(CacheKind::gradient, "g") + " is missing";
  CHECK(cache.get_blob(CacheKind::gradient, "g").error().message().ends_with(gone));
  CHECK(cache.verify_blob(CacheKind::gradient, "g").error().message().ends_with(gone));
  REQUIRE(cache.put_blob(CacheKind::gradient, "g", Bytes{4, 5}, 0, true).ok());
  spit(cache.meta_path(CacheKind::gradient, "g"), "kind=gradient\nlen=2\nchecksum32=1\ncreated_unix=0\nextra=1\n");
  auto bad = cache.get_blob(CacheKind::gradient, "g");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().kind() == CacheFailure::corrupt);
  CHECK(bad.error().message().find("unknown key 'extra'") != std::string::npos);
  spit(cache.meta_path(CacheKind::gradient, "g"), "kind=tensor\nlen=2\nchecksum32=1\ncreated_unix=0\n");
  CHECK(cache.get_blob(CacheKind::gradient, "g").error().message().find("names kind tensor") != std::string::npos);
  REQUIRE(cache.remove(CacheKind::gradient, "g").ok());
  CHECK_FALSE(std::filesystem::exists(cache.meta_path(CacheKind::gradient, "g")));
  CHECK(cache.remove(CacheKind::gradient, "g").ok());
}

TEST_CASE("persistent_cache: deterministic tensor and gradient keys") {
  CHECK(tensor_cache_key("t1", 4) == "tensor:t1:len4");
  CHECK(gradient_cache_key("g1", 3) == "grad:g1:len3");
}

TEST_CASE("persistent_cache: a tensor name is a name, not a path: keys are safe file names") {
  // Ids that were always safe file names keep their keys (existing checkpoints still load).
  CHECK(tensor_cache_key("..", 4) == "tensor:..:len4");
  CHECK(tensor_cache_key("a%2Fb", 4) == "tensor:a%2Fb:len4");
  CHECK(tensor_cache_key(std::string(150, 'x'), 1) == "tensor:" + std::string(150, 'x') + ":len1");
  // Any other is percent-encoded outside [A-Za-z0-9._-] under its own prefix, so no two ids meet.
  CHECK(tensor_cache_key("levels/0/W_K", 8) == "tensor%:levels%2F0%2FW_K:len8");
  CHECK(gradient_cache_key("../../etc/passwd", 2) == "grad%:..%2F..%2Fetc%2Fpasswd:len2");
  CHECK(tensor_cache_key("a/b", 4) != tensor_cache_key("a%2Fb", 4));
  CHECK(tensor_cache_key(std::string("a\0b", 3), 1) == "tensor%:a%00b:len1");
  CHECK(tensor_cache_key("", 1) == "tensor%::len1");
  // Long ones become the SHA-256 of their bytes; every key passes the cache's own key check.
  const std::string long_id = std::string(300, 'y') + "/z";
  CHECK(tensor_cache_key(long_id, 5).starts_with("tensor#:"));
  CHECK(tensor_cache_key(long_id, 5).size() == 8 + 64 + 5);
  CHECK(tensor_cache_key(long_id, 5) != tensor_cache_key(std::string(300, 'y') + "/w", 5));
  testsupport::TempDir dir;
  PersistentHybridCache cache(dir.file("names"));
  const Bytes one{1};
  for (const std::string& id : {std::string("levels/0/W_K"), std::string("/etc/passwd"), std::string("../x"), long_id,
                                std::string(151, 'q'), std::string("a\\b")}) {
    CAPTURE(id);
    REQUIRE(cache.put_blob(CacheKind::tensor, tensor_cache_key(id, 1), one, 0, true).ok());
    auto back = cache.get_blob(CacheKind::tensor, tensor_cache_key(id, 1));
    REQUIRE(back.ok());
    CHECK(*back == one);
  }
}

TEST_CASE("fnv1a32: FNV-1a reference values") {
  CHECK(fnv1a32(Bytes{}) == 0x811C9DC5U);
  const std::string a = "a";
  CHECK(fnv1a32({reinterpret_cast<const std::uint8_t*>(a.data()), a.size()}) == 0xE40C292CU);
  const std::string foobar = "foobar";
  CHECK(fnv1a32({reinterpret_cast<const std::uint8_t*>(foobar.data()), foobar.size()}) == 0xBF9CF968U);
}
