#pragma once
// APX 13.2.3: how an SSD blob is encoded. None and Rle are the seed's; ShuffleZstd is a
// byte-shuffle filter (bytes of equal significance grouped, as Blosc does) followed by zstd.
#include <cstdint>
#include <optional>

namespace hybrid {

enum class CompressionKind : std::uint8_t { none, rle, shuffle_zstd };

[[nodiscard]] const char* to_string(CompressionKind kind);  // "none", "rle", "shuffle_zstd"

struct CompressionMeta {
  CompressionKind kind = CompressionKind::none;
  std::uint64_t original_bytes = 0;
  std::uint32_t element_size = 0;  // shuffle width for ShuffleZstd; 0 otherwise
  // CRC-32C of the uncompressed bytes, checked on read; absent for blobs written without it.
  std::optional<std::uint32_t> crc32c;

  friend bool operator==(const CompressionMeta&, const CompressionMeta&) = default;
};

// What the compression policy picked for one tensor.
struct CompressionChoice {
  CompressionKind kind = CompressionKind::none;
  std::uint32_t element_size = 4;  // ShuffleZstd only
  int zstd_level = 1;              // ShuffleZstd only

  friend bool operator==(const CompressionChoice&, const CompressionChoice&) = default;
};

}  // namespace hybrid
