#include "hybrid/memory/compression_policy.hpp"

namespace hybrid {

CompressionChoice CompressionPolicy::choose(std::string_view tensor_id, std::uint64_t bytes) const {
  if (auto it = per_tensor.find(tensor_id); it != per_tensor.end()) return it->second;
  CompressionChoice none{CompressionKind::none, element_size, zstd_level};
  if (default_kind == CompressionKind::none || bytes < min_bytes) return none;
  if (default_kind == CompressionKind::shuffle_zstd && (element_size == 0 || bytes % element_size != 0)) return none;
  return CompressionChoice{default_kind, element_size, zstd_level};
}

}  // namespace hybrid
