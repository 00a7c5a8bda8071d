#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

const char* to_string(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::none: return "none";
    case CompressionKind::rle: return "rle";
    case CompressionKind::shuffle_zstd: return "shuffle_zstd";
  }
  return "unknown";
}

std::optional<CompressionKind> parse_compression_kind(std::string_view text) {
  for (CompressionKind k : {CompressionKind::none, CompressionKind::rle, CompressionKind::shuffle_zstd}) {
    if (text == to_string(k)) return k;
  }
  return std::nullopt;
}

}  // namespace hybrid
