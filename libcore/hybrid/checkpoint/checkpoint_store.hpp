#pragma once
// APX 13.9.0-13.9.2: save the memory manager's registry to <root>/checkpoint.meta and restore
// it, hardware-agnostically, into another manager.
//
// save never writes blobs: it records the cache reference ("tensor:<id>:len<n>" /
// "grad:<id>:len<n>") when the attached cache holds it. restore needs an attached cache and
// loads and verifies every blob before it registers anything, so a restore that fails leaves
// the manager as it was. VRAM entries come back in RAM; CPU entries are not materialized.
#include <cstdint>
#include <string>

#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include <string>
#include <vector>

#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

// The entries save_checkpoint would write, without writing them.
[[nodiscard]] HybridCheckpoint build_checkpoint(std::uint64_t created_unix, const HybridMemoryManager& mem);

[[nodiscard]] CheckpointResult<HybridCheckpoint> save_checkpoint(const std::string& root, std::uint64_t created_unix,
                                                                 const HybridMemoryManager& mem,
                                                                 common::FileSystem& fs = common::real_file_system());

// The tier an entry is restored on: Vram -> Ram, the others unchanged.
[[nodiscard]] MemoryTier restore_tier(MemoryTier saved);

// `drift` (optional) is cleared, then receives one report per drifting entry.
[[nodiscard]] CheckpointResult<HybridCheckpoint> restore_checkpoint(const std::string& root, HybridMemoryManager& mem,
                                                                    DriftCollector* drift = nullptr,
                                                                    common::FileSystem& fs = common::real_file_system());

// A VRAM entry restored in RAM although a GPU was offered, and why (the move's error).
struct VramFallback {
  std::string id;
  std::string reason;
};

// As restore_checkpoint, for a host whose GPU the caller vouches for (`gpu_available`): a VRAM
// entry is put back on VRAM when the manager's adapter takes it (it fits), else in RAM with the
// reason in `fallbacks`; drift is judged for a host with a GPU. Without a GPU, the seed's
// hardware-agnostic restore above.
[[nodiscard]] CheckpointResult<HybridCheckpoint> restore_checkpoint_on_host(const std::string& root,
                                                                            HybridMemoryManager& mem, bool gpu_available,
                                                                            DriftCollector* drift,
                                                                            std::vector<VramFallback>* fallbacks);

}  // namespace hybrid
