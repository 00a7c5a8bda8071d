#include "hybrid/memory/gradient_store.hpp"

namespace hybrid {

CacheResult<void> GradientStore::persist(std::string_view grad_id, std::span<const std::uint8_t> bytes,
                                         std::uint64_t created_unix, bool overwrite) {
  if (!cache_) return CacheError::io(kErrPersistentCacheNotAttached);
  std::string key = gradient_cache_key(grad_id, bytes.size());
  if (auto put = cache_->put_blob(CacheKind::gradient, key, bytes, created_unix, overwrite); !put) {
    return put.error();
  }
  ids_.insert(std::string(grad_id));
  return {};
}

bool GradientStore::contains(std::string_view id) const { return ids_.contains(id); }

void GradientStore::note_restored(std::string_view grad_id) { ids_.insert(std::string(grad_id)); }

}  // namespace hybrid
