// The strict .meta parser.
#include "hybrid/cache/cache_meta_format.hpp"

#include <doctest/doctest.h>

using namespace hybrid;

TEST_CASE("cache_meta_format: format then parse is identity; legacy kind spelling accepted") {
  const CacheEntryMeta m{CacheKind::kernel_meta, 42, 4000000000U, 17};
  const std::string text = format_cache_meta(m);
  CHECK(text == "kind=kernel_meta\nlen=42\ncrc32c=4000000000\ncreated_unix=17\n");
  auto back = parse_cache_meta(text);
  REQUIRE(back.ok());
  CHECK(*back == m);
  auto legacy = parse_cache_meta("kind=kernelmeta\nlen=1\nchecksum32=2\ncreated_unix=3\n");
  REQUIRE(legacy.ok());
  CHECK(legacy->kind == CacheKind::kernel_meta);
  // A v1 meta (FNV-1a, checksum32=) formats back byte for byte as v1.
  CHECK(legacy->sum == FormatSum::fnv1a);
  CHECK(format_cache_meta(*legacy) == "kind=kernel_meta\nlen=1\nchecksum32=2\ncreated_unix=3\n");
  // One payload checksum: both keys, or neither, is malformed.
  CHECK_FALSE(parse_cache_meta("kind=tensor\nlen=1\nchecksum32=2\ncrc32c=2\ncreated_unix=3\n").ok());
  CHECK_FALSE(parse_cache_meta("kind=tensor\nlen=1\ncreated_unix=3\n").ok());
}

TEST_CASE("cache_meta_format: every malformation is Corrupt") {
  const char* bad[] = {
      "",                                                              // nothing
      "kind=tensor\nlen=1\nchecksum32=2\n",                            // missing created_unix
      "kind=blob\nlen=1\nchecksum32=2\ncreated_unix=3\n",              // unknown kind
      "kind=tensor\nlen=-1\nchecksum32=2\ncreated_unix=3\n",           // negative
      "kind=tensor\nlen=+1\nchecksum32=2\ncreated_unix=3\n",           // sign
      "kind=tensor\nlen=1x\nchecksum32=2\ncreated_unix=3\n",           // trailing junk
      "kind=tensor\nlen=1\nchecksum32=4294967296\ncreated_unix=3\n",   // u32 overflow
      "kind=tensor\nlen=1\nlen=1\nchecksum32=2\ncreated_unix=3\n",     // duplicate
      "kind=tensor\nlen=1\nchecksum32=2\ncreated_unix=3\nfoo=bar\n",   // unknown key
      "kind=tensor\nlen 1\nchecksum32=2\ncreated_unix=3\n",            // no '='
      "kind=tensor\nlen=\nchecksum32=2\ncreated_unix=3\n",             // empty value
  };
  for (const char* text : bad) {
    CAPTURE(text);
    auto r = parse_cache_meta(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind() == CacheFailure::corrupt);
  }
}
