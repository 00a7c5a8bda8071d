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

}  // namespace hybrid
