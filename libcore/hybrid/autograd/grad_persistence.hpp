#pragma once
// APX 13.8.2: keep gradients in the persistent cache (kind Gradient) between backward passes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "hybrid/cache/cache_types.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

struct GradPersistReport {
  std::size_t saved = 0;
  std::size_t skipped = 0;  // unknown ids, SSD/CPU residents, gradients without RAM bytes, failed VRAM moves

  friend bool operator==(const GradPersistReport&, const GradPersistReport&) = default;
};

// For each id: RAM bytes are stored under "grad:<id>:len<n>" (overwriting); a VRAM gradient is
// first moved to RAM through the memory manager. A CacheError from the cache (or a missing
// cache) stops the walk and is returned.
[[nodiscard]] CacheResult<GradPersistReport> persist_grads_after_backward(HybridMemoryManager& mem,
                                                                          std::span<const std::string> grad_ids,
                                                                          std::uint64_t created_unix);

// For each id the memory manager does not know, restores the persisted bytes and registers them
// in RAM. Best-effort: entries that cannot be restored are left out. Returns how many came back.
std::size_t warm_grads_before_backward(HybridMemoryManager& mem, std::span<const std::string> grad_ids);

}  // namespace hybrid
