#include "hybrid/checkpoint/lazy_restore.hpp"

#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/memory/move_error.hpp"

namespace hybrid {

std::optional<LazyState> LazyRegistry::state(const std::string& id) const {
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  return it->second.state;
}

const LazyBacking* LazyRegistry::backing(const std::string& id) const {
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : &it->second;
}

std::size_t LazyRegistry::unmaterialized_count() const {
  std::size_t n = 0;
  for (const auto& [id, b] : entries_) n += b.state == LazyState::unmaterialized ? 1 : 0;
  return n;
}

CheckpointResult<void> LazyRegistry::ensure_materialized(HybridMemoryManager& mem, const std::string& id) {
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.state == LazyState::materialized) return {};
  LazyBacking& b = it->second;
  const auto* src = std::get_if<LazyFromPersistentCache>(&b.source);
  if (!src) return CheckpointError::invalid_format("entry '" + id + "': lazy source not supported in this version");
  const PersistentHybridCache* cache = mem.persistent_cache();
  if (!cache) return CheckpointError::io(std::string(kErrPersistentCacheNotAttached));
  auto bytes = cache->get_blob(src->kind, src->key);
  if (!bytes) return from_cache_error(bytes.error(), id);
  if (bytes->size() != b.length) {
    return CheckpointError::invalid_format("entry '" + id + "': manifest says " + std::to_string(b.length) +
                                           " bytes, cache blob has " + std::to_string(bytes->size()));
  }
  // Re-registering replaces the footprint-only registration; hints are kept by the manager.
  if (auto r = mem.register_tensor_with_data(id, std::move(bytes.value()), b.tier); !r) {
    return CheckpointError::io("entry '" + id + "': " + move_error_text(r.error()));
  }
  if (b.is_grad) mem.gradients().note_restored(id);
  b.state = LazyState::materialized;
  return {};
}

CheckpointResult<HybridCheckpoint> restore_checkpoint_lazy(const std::string& root, HybridMemoryManager& mem,
                                                           LazyRegistry& lazy, DriftCollector* drift,
                                                           common::FileSystem& fs) {
  if (drift) drift->clear();
  auto cp = read_manifest(fs, root);
  if (!cp) return cp.error();
  for (const CheckpointEntry& e : cp->entries) {
    const MemoryTier effective = restore_tier(e.tier);
    mem.register_tensor(e.id, e.len_bytes, effective);
    if (e.cache_kind && e.cache_key) {
      lazy.insert(e.id, LazyBacking{LazyState::unmaterialized, effective, e.len_bytes, e.is_grad,
                                    LazyFromPersistentCache{*e.cache_kind, *e.cache_key}});
    }
    if (drift) {
      if (auto report = detect_drift(e, effective, kRestoreAssumesGpu)) drift->push(std::move(*report));
    }
    mem.hints().set_desired_tier(e.id, e.desired_tier);
    mem.hints().set_last_plan_summary(e.id, e.last_plan_summary);
  }
  return cp;
}

}  // namespace hybrid
