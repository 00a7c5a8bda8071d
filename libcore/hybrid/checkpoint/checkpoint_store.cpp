#include "hybrid/checkpoint/checkpoint_store.hpp"

#include <algorithm>
#include <tuple>

#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/memory/move_error.hpp"

namespace hybrid {

HybridCheckpoint build_checkpoint(std::uint64_t created_unix, const HybridMemoryManager& mem) {
  HybridCheckpoint cp;
  cp.version = kCheckpointVersion;
  cp.created_unix = created_unix;
  const PersistentHybridCache* cache = mem.persistent_cache();
  for (const std::string& id : mem.ids_for_checkpoint()) {
    CheckpointEntry e;
    e.id = id;
    e.is_grad = mem.gradients().contains(id);
    e.tier = mem.get_tier(id).value_or(MemoryTier::cpu);
    e.len_bytes = mem.tensor_len_bytes(id).value_or(0);
    if (cache) {
      const CacheKind kind = e.is_grad ? CacheKind::gradient : CacheKind::tensor;
      std::string key = e.is_grad ? gradient_cache_key(id, e.len_bytes) : tensor_cache_key(id, e.len_bytes);
      if (cache->exists(kind, key)) {
        e.cache_kind = kind;
        e.cache_key = std::move(key);
      }
    }
    e.desired_tier = mem.hints().desired_tier(id);
    e.last_plan_summary = mem.hints().last_plan_summary(id);
    cp.entries.push_back(std::move(e));
  }
  std::sort(cp.entries.begin(), cp.entries.end(), [](const CheckpointEntry& a, const CheckpointEntry& b) {
    return std::tie(a.is_grad, a.id) < std::tie(b.is_grad, b.id);
  });
  return cp;
}

CheckpointResult<HybridCheckpoint> save_checkpoint(const std::string& root, std::uint64_t created_unix,
                                                   const HybridMemoryManager& mem, common::FileSystem& fs) {
  HybridCheckpoint cp = build_checkpoint(created_unix, mem);
  if (auto s = write_manifest(fs, root, cp); !s) return s.error();
  return cp;
}

MemoryTier restore_tier(MemoryTier saved) { return saved == MemoryTier::vram ? MemoryTier::ram : saved; }

namespace {

CheckpointResult<HybridCheckpoint> restore_into(const std::string& root, HybridMemoryManager& mem, bool gpu_available,
                                                DriftCollector* drift, std::vector<VramFallback>* fallbacks,
                                                common::FileSystem& fs) {
  if (drift) drift->clear();
  auto cp = read_manifest(fs, root);
  if (!cp) return cp.error();
  const PersistentHybridCache* cache = mem.persistent_cache();
  if (!cache) return CheckpointError::io(std::string(kErrPersistentCacheNotAttached));

  // Phase 1: fetch and verify every blob, so a bad one leaves the manager untouched.
  std::vector<std::optional<Bytes>> payloads;
  for (const CheckpointEntry& e : cp->entries) {
    if (e.tier == MemoryTier::cpu) {  // no restore policy for CPU entries yet
      payloads.emplace_back();
      continue;
    }
    if (!e.cache_kind || !e.cache_key) {
      return CheckpointError::missing_blob("entry '" + e.id + "' (tier " + to_string(e.tier) +
                                           ") has no cache reference to restore from");
    }
    auto bytes = cache->get_blob(*e.cache_kind, *e.cache_key);
    if (!bytes) return from_cache_error(bytes.error(), e.id);
    if (bytes->size() != e.len_bytes) {
      return CheckpointError::invalid_format("entry '" + e.id + "': manifest says " + std::to_string(e.len_bytes) +
                                             " bytes, cache blob has " + std::to_string(bytes->size()));
    }
    payloads.emplace_back(std::move(bytes.value()));
  }

  // Phase 2: register, then judge drift and re-apply hints.
  for (std::size_t i = 0; i < cp->entries.size(); ++i) {
    const CheckpointEntry& e = cp->entries[i];
    MemoryTier actual = restore_tier(e.tier);
    if (payloads[i] && gpu_available && e.tier == MemoryTier::vram) {
      // The GPU is offered: VRAM when the adapter takes the bytes, else RAM, saying why.
      if (auto r = mem.register_tensor_with_data(e.id, Bytes(*payloads[i]), MemoryTier::vram); r) {
        actual = MemoryTier::vram;
        payloads[i].reset();
      } else if (fallbacks) {
        fallbacks->push_back({e.id, move_error_text(r.error())});
      }
    }
    if (payloads[i]) {
      if (auto r = mem.register_tensor_with_data(e.id, std::move(*payloads[i]), actual); !r) {
        return CheckpointError::io("entry '" + e.id + "': " + move_error_text(r.error()));
      }
      if (e.is_grad) mem.gradients().note_restored(e.id);
    }
    if (drift) {
      if (auto report = detect_drift(e, actual, gpu_available)) drift->push(std::move(*report));
    }
    mem.hints().set_desired_tier(e.id, e.desired_tier);
    mem.hints().set_last_plan_summary(e.id, e.last_plan_summary);
  }
  return cp;
}

}  // namespace

CheckpointResult<HybridCheckpoint> restore_checkpoint(const std::string& root, HybridMemoryManager& mem,
                                                      DriftCollector* drift, common::FileSystem& fs) {
  return restore_into(root, mem, kRestoreAssumesGpu, drift, nullptr, fs);
}

CheckpointResult<HybridCheckpoint> restore_checkpoint_on_host(const std::string& root, HybridMemoryManager& mem,
                                                              bool gpu_available, DriftCollector* drift,
                                                              std::vector<VramFallback>* fallbacks) {
  if (!gpu_available) return restore_checkpoint(root, mem, drift);
  return restore_into(root, mem, true, drift, fallbacks, common::real_file_system());
}

}  // namespace hybrid
