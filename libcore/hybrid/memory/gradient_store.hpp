#pragma once
// APX 13.8.2: gradients kept in the persistent cache between backward passes. Remembers which
// ids were stored as gradients and under which key, so a checkpoint can list them and a later
// pass can restore them.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hybrid/cache/persistent_cache.hpp"

namespace hybrid {

inline constexpr const char* kErrPersistentCacheNotAttached = "Persistent cache not attached to HybridMemoryManager";

class GradientStore {
 public:
  // The cache gradients go to; without one, persist and restore fail with
  // io (kErrPersistentCacheNotAttached).
  void attach_cache(PersistentHybridCache cache) { cache_ = std::move(cache); }

  // Key "grad:<id>:len<n>", kind Gradient.
  [[nodiscard]] CacheResult<void> persist(std::string_view grad_id, std::span<const std::uint8_t> bytes,
                                          std::uint64_t created_unix, bool overwrite);
  // not_found when `grad_id` was never persisted (or noted) here.
  [[nodiscard]] CacheResult<std::vector<std::uint8_t>> restore(std::string_view grad_id) const;
  // True for ids persisted (or noted) as gradients.
  [[nodiscard]] bool contains(std::string_view id) const;
  // The gradient's cache key, if persisted.
  [[nodiscard]] std::optional<std::string> key_of(std::string_view grad_id) const;
  // Records `grad_id` as a gradient stored under `key` (used when restoring a checkpoint).
  void note_key(std::string_view grad_id, std::string key);

 private:
  std::optional<PersistentHybridCache> cache_;
  std::map<std::string, std::string, std::less<>> keys_;
};

}  // namespace hybrid
