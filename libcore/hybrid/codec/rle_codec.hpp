#pragma once
// APX 13.2.3: toy run-length codec, (count: u8, value: u8) pairs, count in 1..255.
#include <cstdint>
#include <span>
#include <utility>

#include "common/result.hpp"
#include "hybrid/codec/bytes.hpp"
#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

[[nodiscard]] std::pair<Bytes, CompressionMeta> rle_compress(std::span<const std::uint8_t> input);

// malformed ("Invalid RLE stream: ...") on odd length, a zero count, or a decoded length
// other than meta.original_bytes.
[[nodiscard]] common::Result<Bytes> rle_decompress(std::span<const std::uint8_t> input, const CompressionMeta& meta);

}  // namespace hybrid
