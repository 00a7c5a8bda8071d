#pragma once
// APX 13.2.1-13.2.3: where a tensor's bytes actually are.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "hybrid/codec/bytes.hpp"
#include "hybrid/codec/compression_types.hpp"

namespace hybrid {

struct NoBacking {
  friend bool operator==(const NoBacking&, const NoBacking&) = default;
};
struct RamBacking {
  Bytes data;
  friend bool operator==(const RamBacking&, const RamBacking&) = default;
};
struct SsdFileBacking {
  std::string path;
  std::optional<CompressionMeta> compression;  // absent: legacy raw blob
  friend bool operator==(const SsdFileBacking&, const SsdFileBacking&) = default;
};
struct VramHandleBacking {
  std::string key;  // the adapter's handle; the tensor id
  friend bool operator==(const VramHandleBacking&, const VramHandleBacking&) = default;
};

using StorageBacking = std::variant<NoBacking, RamBacking, SsdFileBacking, VramHandleBacking>;

// Convenience accessors (nullptr when the backing is another alternative).
[[nodiscard]] inline const RamBacking* as_ram(const StorageBacking* b) { return b ? std::get_if<RamBacking>(b) : nullptr; }
[[nodiscard]] inline const SsdFileBacking* as_ssd(const StorageBacking* b) {
  return b ? std::get_if<SsdFileBacking>(b) : nullptr;
}
[[nodiscard]] inline const VramHandleBacking* as_vram(const StorageBacking* b) {
  return b ? std::get_if<VramHandleBacking>(b) : nullptr;
}

}  // namespace hybrid
