#pragma once
// ShuffleZstd blob format (little-endian):
//   magic "APXZ" | u8 version=1 | u8 codec=2 (shuffle_zstd) | u16 element_size |
//   u64 original_bytes | u32 crc32c(original) | zstd frame of the shuffled bytes
// Decoding checks magic, codec, sizes against the caller's CompressionMeta and the CRC.
#include <cstdint>
#include <span>

#include "common/result.hpp"
#include "hybrid/codec/bytes.hpp"
#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

inline constexpr std::size_t kShuffleZstdHeaderBytes = 20;

// element_size in 1..65535; level as zstd (1 = fast). invalid_argument on bad parameters,
// io when zstd cannot run.
[[nodiscard]] common::Result<Bytes> shuffle_zstd_compress(std::span<const std::uint8_t> input,
                                                          std::uint32_t element_size, int level,
                                                         CompressionMeta* meta_out);

// malformed ("Invalid shuffle_zstd blob: ...") on any mismatch or corruption.
[[nodiscard]] common::Result<Bytes> shuffle_zstd_decompress(std::span<const std::uint8_t> input,
                                                            const CompressionMeta& meta);

}  // namespace hybrid
