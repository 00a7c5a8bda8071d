#pragma once
// APX 13.8.2: gradients kept in the persistent cache between backward passes. Remembers which
// ids were stored as gradients, so a checkpoint lists them as gradients (is_grad) under their
// "grad:" key; restoring a checkpoint reads them back through that key and notes them here.
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "hybrid/cache/persistent_cache.hpp"

namespace hybrid {

inline constexpr const char* kErrPersistentCacheNotAttached = "Persistent cache not attached to HybridMemoryManager";

class GradientStore {
 public:
  // The cache gradients go to; without one, persist fails with io (kErrPersistentCacheNotAttached).
  void attach_cache(PersistentHybridCache cache) { cache_ = std::move(cache); }

  // Key "grad:<id>:len<n>", kind Gradient.
  [[nodiscard]] CacheResult<void> persist(std::string_view grad_id, std::span<const std::uint8_t> bytes,
                                          std::uint64_t created_unix, bool overwrite);
  // True for ids persisted (or noted) as gradients.
  [[nodiscard]] bool contains(std::string_view id) const;
  // Records `grad_id` as a gradient a restored checkpoint brought back.
  void note_restored(std::string_view grad_id);

 private:
  std::optional<PersistentHybridCache> cache_;
  std::set<std::string, std::less<>> ids_;
};

}  // namespace hybrid
