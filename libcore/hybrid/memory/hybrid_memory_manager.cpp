#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

namespace {

common::Error not_registered() { return common::Error::invalid_argument(kErrTensorNotRegistered); }

}  // namespace

HybridMemoryManager::HybridMemoryManager(std::string cache_dir, common::FileSystem& fs)
    : HybridMemoryManager(std::move(cache_dir), std::make_unique<NullVramAdapter>(), fs) {}

HybridMemoryManager::HybridMemoryManager(std::string cache_dir, std::unique_ptr<VramAdapter> vram,
                                         common::FileSystem& fs)
    : cache_(std::move(cache_dir), fs), vram_(vram ? std::move(vram) : std::make_unique<NullVramAdapter>()) {}

HybridMemoryManager::~HybridMemoryManager() = default;

// ---------------------------------------------------------------- registration

void HybridMemoryManager::register_tensor(std::string_view id, std::uint64_t bytes, MemoryTier initial) {
  if (auto it = tensors_.find(id); it != tensors_.end()) {
    release_backing(id, it->second.backing);
    tensors_.erase(it);
  }
  tensors_.emplace(std::string(id), TensorResidence{TensorId{std::string(id)}, initial, MemoryFootprint{bytes}, NoBacking{}});
}

common::Status HybridMemoryManager::register_tensor_with_data(std::string_view id, Bytes data, MemoryTier initial) {
  const MemoryFootprint footprint{data.size()};
  StorageBacking backing = NoBacking{};
  MemoryTier tier = initial;
  switch (initial) {
    case MemoryTier::ram:
    case MemoryTier::cpu:
      backing = RamBacking{std::move(data)};
      break;
    case MemoryTier::ssd: {
      auto ssd = spill_to_ssd(id, data);
      if (!ssd) return ssd.error();
      backing = std::move(ssd).value();
      break;
    }
    case MemoryTier::vram:
      if (vram_->is_available()) {
        if (auto up = vram_->upload(id, data); !up) return up.error();
        backing = VramHandleBacking{std::string(id)};
      } else {
        backing = RamBacking{std::move(data)};
        tier = MemoryTier::ram;
      }
      break;
  }
  if (auto it = tensors_.find(id); it != tensors_.end()) {
    // The new bytes may reuse the old blob path or VRAM key; only release what they do not.
    const StorageBacking& old = it->second.backing;
    const bool same_blob = as_ssd(&old) && as_ssd(&backing) && as_ssd(&old)->path == as_ssd(&backing)->path;
    const bool same_vram = as_vram(&old) && as_vram(&backing);
    if (!same_blob && !same_vram) release_backing(id, old);
    tensors_.erase(it);
  }
  tensors_.emplace(std::string(id), TensorResidence{TensorId{std::string(id)}, tier, footprint, std::move(backing)});
  return {};
}

bool HybridMemoryManager::remove_tensor(std::string_view id) {
  auto it = tensors_.find(id);
  if (it == tensors_.end()) return false;
  release_backing(id, it->second.backing);
  tensors_.erase(it);
  hints_.erase(id);
  return true;
}

void HybridMemoryManager::release_backing(std::string_view, const StorageBacking& backing) {
  // Best-effort: a leftover blob or buffer wastes space but loses no data anyone still names.
  if (const auto* ssd = as_ssd(&backing)) (void)cache_.delete_blob(ssd->path);
  if (const auto* v = as_vram(&backing); v && vram_->is_available()) (void)vram_->free(v->key);
}

// ---------------------------------------------------------------- queries

std::optional<MemoryTier> HybridMemoryManager::get_tier(std::string_view id) const {
  auto it = tensors_.find(id);
  if (it == tensors_.end()) return std::nullopt;
  return it->second.tier;
}

std::optional<std::size_t> HybridMemoryManager::tensor_len_bytes(std::string_view id) const {
  auto it = tensors_.find(id);
  if (it == tensors_.end()) return std::nullopt;
  return static_cast<std::size_t>(it->second.footprint.bytes);
}

const TensorResidence* HybridMemoryManager::residence(std::string_view id) const {
  auto it = tensors_.find(id);
  return it == tensors_.end() ? nullptr : &it->second;
}

const StorageBacking* HybridMemoryManager::backing(std::string_view id) const {
  const TensorResidence* r = residence(id);
  return r ? &r->backing : nullptr;
}

std::vector<std::string> HybridMemoryManager::ids_for_checkpoint() const {
  std::vector<std::string> ids;
  ids.reserve(tensors_.size());
  for (const auto& [id, _] : tensors_) ids.push_back(id);
  return ids;
}

// ---------------------------------------------------------------- moves

common::Result<MovePlan> HybridMemoryManager::plan_move(std::string_view id, MemoryTier target,
                                                        const MemorySnapshot& /*snapshot*/) const {
  const TensorResidence* r = residence(id);
  if (!r) return not_registered();
  if (target == MemoryTier::vram && !vram_->is_available()) {
    return MovePlan{r->tier, MemoryTier::ram, kReasonVramDegraded};
  }
  if (r->tier == target) return MovePlan{r->tier, target, kReasonAlreadyInTarget};
  if (target == MemoryTier::ssd) {
    if (std::holds_alternative<NoBacking>(r->backing)) return common::Error::invalid_argument(kErrSsdWithoutBacking);
    if (auto d = cache_.ensure_dir(); !d) return d.error();
  }
  return MovePlan{r->tier, target,
                  std::string("Move tensor from ") + to_string(r->tier) + " to " + to_string(target)};
}

common::Result<SsdFileBacking> HybridMemoryManager::spill_to_ssd(std::string_view id,
                                                                 std::span<const std::uint8_t> data) {
  if (auto d = cache_.ensure_dir(); !d) return d.error();
  std::string path = cache_.blob_path(id);
  auto meta = cache_.write_blob(path, data, compression_.choose(id, data.size()));
  if (!meta) return meta.error();
  return SsdFileBacking{std::move(path), std::move(meta).value()};
}

common::Result<Bytes> HybridMemoryManager::read_ssd(const SsdFileBacking& ssd) const {
  return ssd.compression ? cache_.read_blob_with_meta(ssd.path, *ssd.compression) : cache_.read_blob(ssd.path);
}

void HybridMemoryManager::persist_tensor_copy(std::string_view id, std::span<const std::uint8_t> data) {
  if (!persistent_) return;
  auto put = persistent_->put_blob(CacheKind::tensor, tensor_cache_key(id, data.size()), data, 0, true);
  if (!put) last_persist_error_ = put.error();
}

common::Status HybridMemoryManager::apply_move(std::string_view id, const MovePlan& plan) {
  auto it = tensors_.find(id);
  if (it == tensors_.end()) return not_registered();
  TensorResidence& r = it->second;
  const MemoryTier to = plan.to;
  if (r.tier == to) return {};

  if (auto* ram = std::get_if<RamBacking>(&r.backing)) {
    if (to == MemoryTier::ssd) {
      auto ssd = spill_to_ssd(id, ram->data);
      if (!ssd) return ssd.error();
      persist_tensor_copy(id, ram->data);
      r.backing = std::move(ssd).value();  // frees the RAM buffer
      r.tier = MemoryTier::ssd;
      return {};
    }
    if (to == MemoryTier::vram) {
      if (!vram_->is_available()) return {};  // planning degrades this; stay in RAM
      if (auto up = vram_->upload(id, ram->data); !up) return up.error();
      r.backing = VramHandleBacking{std::string(id)};
      r.tier = MemoryTier::vram;
      return {};
    }
    r.tier = to;
    return {};
  }

  if (auto* ssd = std::get_if<SsdFileBacking>(&r.backing)) {
    if (to == MemoryTier::ram) {
      auto bytes = read_ssd(*ssd);
      if (!bytes) return bytes.error();
      if (auto v = r.footprint.validate_len(bytes->size()); !v) return v.error();
      if (auto del = cache_.delete_blob(ssd->path); !del) return del.error();
      r.backing = RamBacking{std::move(bytes).value()};
      r.tier = MemoryTier::ram;
      return {};
    }
    if (to == MemoryTier::vram) {
      if (!vram_->is_available()) return {};
      auto bytes = read_ssd(*ssd);
      if (!bytes) return bytes.error();
      if (auto v = r.footprint.validate_len(bytes->size()); !v) return v.error();
      if (auto up = vram_->upload(id, *bytes); !up) return up.error();
      (void)cache_.delete_blob(ssd->path);
      r.backing = VramHandleBacking{std::string(id)};
      r.tier = MemoryTier::vram;
      return {};
    }
    r.tier = to;
    return {};
  }

  if (auto* handle = std::get_if<VramHandleBacking>(&r.backing)) {
    if (to == MemoryTier::ram || to == MemoryTier::ssd) {
      if (!vram_->is_available()) return common::Error::unsupported(kErrVramNotAvailableForDownload);
      auto bytes = vram_->download(handle->key);
      if (!bytes) return bytes.error();
      if (auto v = r.footprint.validate_len(bytes->size()); !v) return v.error();
      if (to == MemoryTier::ram) {
        (void)vram_->free(handle->key);
        r.backing = RamBacking{std::move(bytes).value()};
        r.tier = MemoryTier::ram;
        return {};
      }
      auto blob = spill_to_ssd(id, *bytes);
      if (!blob) return blob.error();
      persist_tensor_copy(id, *bytes);
      (void)vram_->free(handle->key);
      r.backing = std::move(blob).value();
      r.tier = MemoryTier::ssd;
      return {};
    }
    r.tier = to;
    return {};
  }

  // No bytes behind the tensor: only logical moves make sense.
  if (to == MemoryTier::ssd) return common::Error::invalid_argument(kErrSsdWithoutBacking);
  r.tier = to;
  return {};
}

// ---------------------------------------------------------------- persistent cache

void HybridMemoryManager::attach_persistent_cache(PersistentHybridCache cache) {
  gradients_.attach_cache(cache);
  persistent_ = std::move(cache);
}

const PersistentHybridCache* HybridMemoryManager::persistent_cache() const {
  return persistent_ ? &*persistent_ : nullptr;
}

}  // namespace hybrid
