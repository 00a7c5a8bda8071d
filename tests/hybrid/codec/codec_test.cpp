// The blob codecs on their own (libcore/hybrid/codec): RLE, byte shuffle, shuffle+zstd and the
// codec names. How the SSD cache and the memory manager use them: tests/hybrid/memory.
#include <doctest/doctest.h>

#include <string>

#include "codec_test_data.hpp"
#include "hybrid/codec/byte_shuffle.hpp"
#include "hybrid/codec/compression_types.hpp"
#include "hybrid/codec/rle_codec.hpp"
#include "hybrid/codec/shuffle_zstd_codec.hpp"

using namespace hybrid;
using codec_test::repeated;
using codec_test::smooth_floats;

namespace {
Bytes pattern(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(7 + i * 31 + (i >> 8));
  return b;
}
}  // namespace

TEST_CASE("compression: rle roundtrip integrity") {
  const Bytes data = repeated();
  auto [enc, meta] = rle_compress(data);
  CHECK(meta.kind == CompressionKind::rle);
  CHECK(meta.original_bytes == data.size());
  CHECK(enc.size() < data.size());
  auto dec = rle_decompress(enc, meta);
  REQUIRE(dec.ok());
  CHECK(*dec == data);
  // Runs longer than 255 split into several pairs.
  Bytes long_run(600, 0xAB);
  auto [enc2, meta2] = rle_compress(long_run);
  CHECK(enc2 == Bytes{255, 0xAB, 255, 0xAB, 90, 0xAB});
  CHECK(*rle_decompress(enc2, meta2) == long_run);
  auto [enc3, meta3] = rle_compress(Bytes{});
  CHECK(enc3.empty());
  CHECK(rle_decompress(enc3, meta3)->empty());
}

TEST_CASE("compression: invalid rle stream returns error") {
  const CompressionMeta meta{CompressionKind::rle, 4, 0, std::nullopt};
  auto odd = rle_decompress(Bytes{2, 1, 2}, meta);
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.error().code() == common::ErrorCode::malformed);
  CHECK(odd.error().message().find("Invalid RLE stream") != std::string::npos);
  auto zero = rle_decompress(Bytes{0, 1, 4, 1}, meta);
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().message().find("Invalid RLE stream") != std::string::npos);
  auto short_stream = rle_decompress(Bytes{3, 1}, meta);
  REQUIRE_FALSE(short_stream.ok());
  CHECK(short_stream.error().message().find("Invalid RLE stream") != std::string::npos);
  auto long_stream = rle_decompress(Bytes{200, 1}, meta);
  REQUIRE_FALSE(long_stream.ok());
  CHECK(long_stream.error().message().find("Invalid RLE stream") != std::string::npos);
}

TEST_CASE("byte_shuffle: groups bytes by significance and inverts, tail copied") {
  const Bytes in{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};  // two 4-byte elements + 2 tail bytes
  Bytes out(in.size());
  byte_shuffle(in, out, 4);
  CHECK(out == Bytes{1, 5, 2, 6, 3, 7, 4, 8, 9, 10});
  Bytes back(in.size());
  byte_unshuffle(out, back, 4);
  CHECK(back == in);
  const Bytes big = pattern(100003);
  Bytes s(big.size()), u(big.size());
  byte_shuffle(big, s, 2);
  byte_unshuffle(s, u, 2);
  CHECK(u == big);
}

TEST_CASE("shuffle_zstd: roundtrip, better ratio than unshuffled on floats, header checked") {
  const Bytes data = smooth_floats(1 << 16);
  CompressionMeta meta;
  auto enc = shuffle_zstd_compress(data, 4, 1, &meta);
  REQUIRE(enc.ok());
  CHECK(meta.kind == CompressionKind::shuffle_zstd);
  CHECK(meta.element_size == 4);
  CHECK(meta.original_bytes == data.size());
  CHECK(enc->size() < data.size());
  CompressionMeta unshuffled_meta;
  auto plain = shuffle_zstd_compress(data, 1, 1, &unshuffled_meta);  // width 1 = no shuffle
  REQUIRE(plain.ok());
  CHECK(enc->size() < plain->size());
  auto dec = shuffle_zstd_decompress(*enc, meta);
  REQUIRE(dec.ok());
  CHECK(*dec == data);

  CompressionMeta wrong_width = meta;
  wrong_width.element_size = 2;
  CHECK(shuffle_zstd_decompress(*enc, wrong_width).error().message().find("element size") != std::string::npos);
  CompressionMeta wrong_kind = meta;
  wrong_kind.kind = CompressionKind::rle;
  CHECK(shuffle_zstd_decompress(*enc, wrong_kind).error().message().find("metadata names codec rle") !=
        std::string::npos);
  Bytes bad_codec = *enc;
  bad_codec[5] = 9;
  CHECK(shuffle_zstd_decompress(bad_codec, meta).error().message().find("header names codec 9") != std::string::npos);
  Bytes flipped = *enc;
  flipped[flipped.size() / 2] ^= 0x40;
  auto corrupt = shuffle_zstd_decompress(flipped, meta);
  REQUIRE_FALSE(corrupt.ok());
  CHECK(corrupt.error().message().find("Invalid shuffle_zstd blob") != std::string::npos);
  Bytes truncated(enc->begin(), enc->begin() + 10);
  CHECK_FALSE(shuffle_zstd_decompress(truncated, meta).ok());
  CHECK(shuffle_zstd_compress(data, 0, 1, nullptr).error().code() == common::ErrorCode::invalid_argument);
}

TEST_CASE("compression_kind: names") {
  CHECK(std::string(to_string(CompressionKind::none)) == "none");
  CHECK(std::string(to_string(CompressionKind::rle)) == "rle");
  CHECK(std::string(to_string(CompressionKind::shuffle_zstd)) == "shuffle_zstd");
}
