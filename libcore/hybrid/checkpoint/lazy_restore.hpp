#pragma once
// APX 13.9.3: opt-in lazy restore. Entries are registered logically (id, tier, length,
// hints, drift) and their bytes are loaded on first use through ensure_materialized.
// The registry of lazy backings is an object the caller owns and passes along.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

enum class LazyState : std::uint8_t { unmaterialized, materialized };

struct LazyFromPersistentCache {
  CacheKind kind = CacheKind::tensor;
  std::string key;
};
struct LazyFromSsdPath {  // defined by the seed for later versions; not produced yet
  std::string path;
};
struct LazyFromRamSnapshot {  // defined by the seed for later versions; not produced yet
  Bytes bytes;
};
using LazySource = std::variant<LazyFromPersistentCache, LazyFromSsdPath, LazyFromRamSnapshot>;

struct LazyBacking {
  LazyState state = LazyState::unmaterialized;
  MemoryTier tier = MemoryTier::ram;  // the effective (restored) tier
  std::size_t length = 0;
  bool is_grad = false;
  LazySource source;
};

class LazyRegistry {
 public:
  [[nodiscard]] std::optional<LazyState> state(const std::string& id) const;
  [[nodiscard]] const LazyBacking* backing(const std::string& id) const;
  void insert(const std::string& id, LazyBacking backing) { entries_[id] = std::move(backing); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] std::size_t unmaterialized_count() const;

  // Loads `id`'s bytes from the manager's persistent cache and attaches them on the stored
  // tier. Ids this registry does not hold, and materialized ones, are left alone (Ok).
  [[nodiscard]] CheckpointResult<void> ensure_materialized(HybridMemoryManager& mem, const std::string& id);

 private:
  std::map<std::string, LazyBacking, std::less<>> entries_;
};

// Registers every entry without loading bytes; cache-backed entries go into `lazy`.
// `drift` (optional) is cleared, then filled as by restore_checkpoint.
[[nodiscard]] CheckpointResult<HybridCheckpoint> restore_checkpoint_lazy(
    const std::string& root, HybridMemoryManager& mem, LazyRegistry& lazy, DriftCollector* drift = nullptr,
    common::FileSystem& fs = common::real_file_system());

}  // namespace hybrid
