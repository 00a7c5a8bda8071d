#pragma once
// APX 13.2.3: toy run-length codec, (count: u8, value: u8) pairs, count in 1..255.
#include <cstdint>
#include <span>
#include <utility>

#include "hybrid/memory/compression_types.hpp"
#include "hybrid/memory/move_error.hpp"
#include "hybrid/memory/storage_backing.hpp"

namespace hybrid {

[[nodiscard]] std::pair<Bytes, CompressionMeta> rle_compress(std::span<const std::uint8_t> input);

// Unsupported("Invalid RLE stream: ...") on odd length, a zero count, or a decoded length
// other than meta.original_bytes.
[[nodiscard]] MoveResult<Bytes> rle_decompress(std::span<const std::uint8_t> input, const CompressionMeta& meta);

}  // namespace hybrid
