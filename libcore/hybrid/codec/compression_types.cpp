#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

const char* to_string(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::None: return "none";
    case CompressionKind::Rle: return "rle";
    case CompressionKind::ShuffleZstd: return "shuffle_zstd";
  }
  return "unknown";
}

std::optional<CompressionKind> parse_compression_kind(std::string_view text) {
  for (CompressionKind k : {CompressionKind::None, CompressionKind::Rle, CompressionKind::ShuffleZstd}) {
    if (text == to_string(k)) return k;
  }
  return std::nullopt;
}

}  // namespace hybrid
