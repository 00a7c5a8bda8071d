#pragma once
// Chooses the SSD encoding per tensor. Off by default (every tensor written raw), as the seed
// requires; callers opt in with a default kind and/or per-tensor overrides.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

struct CompressionPolicy {
  CompressionKind default_kind = CompressionKind::none;
  std::uint64_t min_bytes = 64 * 1024;  // smaller tensors stay raw (default kind only)
  std::uint32_t element_size = 4;       // float32
  int zstd_level = 1;
  std::map<std::string, CompressionChoice, std::less<>> per_tensor;  // overrides, any size

  // Override if present; else default_kind when bytes >= min_bytes (and, for ShuffleZstd,
  // bytes is a multiple of element_size); else None.
  [[nodiscard]] CompressionChoice choose(std::string_view tensor_id, std::uint64_t bytes) const;
};

}  // namespace hybrid
