#pragma once
// The test peer of HybridMemoryManager (befriended in its header): lets tests put a tensor into
// states the public API cannot reach, such as a footprint that disagrees with the stored bytes.
#include <cstdint>
#include <string_view>

#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

class HybridMemoryManagerTestPeer {
 public:
  // Overwrites the recorded byte length of `id`; no-op for an unknown id.
  static void set_footprint_bytes(HybridMemoryManager& m, std::string_view id, std::uint64_t bytes) {
    if (auto it = m.tensors_.find(id); it != m.tensors_.end()) it->second.footprint.bytes = bytes;
  }
};

}  // namespace hybrid
