#include "hybrid/memory/gradient_store.hpp"

namespace hybrid {

CacheResult<void> GradientStore::persist(std::string_view grad_id, std::span<const std::uint8_t> bytes,
                                         std::uint64_t created_unix, bool overwrite) {
  if (!cache_) return CacheError::io(kErrPersistentCacheNotAttached);
  std::string key = gradient_cache_key(grad_id, bytes.size());
  if (auto put = cache_->put_blob(CacheKind::gradient, key, bytes, created_unix, overwrite); !put) {
    return put.error();
  }
  keys_.insert_or_assign(std::string(grad_id), std::move(key));
  return {};
}

CacheResult<std::vector<std::uint8_t>> GradientStore::restore(std::string_view grad_id) const {
  if (!cache_) return CacheError::io(kErrPersistentCacheNotAttached);
  auto it = keys_.find(grad_id);
  if (it == keys_.end()) {
    return CacheError::not_found("gradient " + std::string(grad_id) + " was never persisted");
  }
  return cache_->get_blob(CacheKind::gradient, it->second);
}

bool GradientStore::contains(std::string_view id) const { return keys_.find(id) != keys_.end(); }

std::optional<std::string> GradientStore::key_of(std::string_view grad_id) const {
  auto it = keys_.find(grad_id);
  if (it == keys_.end()) return std::nullopt;
  return it->second;
}

void GradientStore::note_key(std::string_view grad_id, std::string key) {
  keys_.insert_or_assign(std::string(grad_id), std::move(key));
}

}  // namespace hybrid
