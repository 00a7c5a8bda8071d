#pragma once
// APX 13.2.0-13.2.3, 13.8.1-13.8.2, 13.9.1 hints: the registry of tensors, their tier and the
// bytes behind it, and the moves between VRAM, RAM and SSD.
//
// Moves dispatch on the tensor's backing and the target tier:
//   Ram bytes  -> Ssd : blob written (atomically, encoded per the compression policy), RAM freed
//   Ssd blob   -> Ram : blob read + verified, length checked, blob deleted
//   Ram bytes  -> Vram: uploaded, RAM freed (no-op when VRAM is unavailable)
//   Vram       -> Ram : downloaded, length checked, VRAM freed (best-effort)
//   Ssd blob   -> Vram: read, checked, uploaded, blob deleted (best-effort)
//   Vram       -> Ssd : downloaded, checked, blob written, VRAM freed (best-effort)
//   otherwise         : the tier changes, the backing stays (Cpu is logical)
// A move that fails returns its MoveError and leaves the tensor's tier and bytes as they were.
// With a PersistentHybridCache attached, every move to SSD also stores the bytes under
// "tensor:<id>:len<n>" (best-effort; the last failure is kept in last_persist_error()).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/memory/compression_policy.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/memory/ssd_cache.hpp"
#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid {

// Reasons of plans that callers may compare against.
inline constexpr const char* kReasonAlreadyInTarget = "Already in target tier";
inline constexpr const char* kReasonVramDegraded = "VRAM unavailable; degrading placement to RAM";
inline constexpr const char* kErrTensorNotRegistered = "Tensor not registered";
inline constexpr const char* kErrSsdWithoutBacking = "Cannot move tensor to SSD without backing data";
inline constexpr const char* kErrVramNotAvailableForDownload = "VRAM not available for download";
inline constexpr const char* kErrPersistentCacheNotAttached = "Persistent cache not attached to HybridMemoryManager";

class HybridMemoryManager {
 public:
  // NullVramAdapter: VRAM placements degrade to RAM.
  explicit HybridMemoryManager(std::string cache_dir, common::FileSystem& fs = common::real_file_system());
  HybridMemoryManager(std::string cache_dir, std::unique_ptr<VramAdapter> vram,
                      common::FileSystem& fs = common::real_file_system());
  HybridMemoryManager(HybridMemoryManager&&) noexcept = default;
  HybridMemoryManager& operator=(HybridMemoryManager&&) noexcept = default;
  ~HybridMemoryManager();

  // ---- registration ----
  // Footprint only, no bytes (NoBacking). Replaces an existing registration of `id`.
  void register_tensor(std::string_view id, std::uint64_t bytes, MemoryTier initial);
  // Ram/Cpu: bytes kept in RAM. Ssd: blob written (policy encoding). Vram: uploaded when the
  // adapter is available, else kept in RAM with tier Ram (degraded). Replaces an existing
  // registration only after the new bytes are stored; on error nothing changes.
  [[nodiscard]] MoveResult<void> register_tensor_with_data(std::string_view id, Bytes data, MemoryTier initial);
  // Forgets `id`, deleting its SSD blob / freeing its VRAM (best-effort) and its hints.
  // False when unknown.
  bool remove_tensor(std::string_view id);

  // ---- queries ----
  [[nodiscard]] std::optional<MemoryTier> get_tier(std::string_view id) const;
  [[nodiscard]] std::optional<std::size_t> tensor_len_bytes(std::string_view id) const;
  [[nodiscard]] const TensorResidence* residence(std::string_view id) const;
  [[nodiscard]] const StorageBacking* backing(std::string_view id) const;
  [[nodiscard]] const StorageBacking* backing_for_test(std::string_view id) const { return backing(id); }
  // Registered ids, sorted.
  [[nodiscard]] std::vector<std::string> ids_for_checkpoint() const;
  [[nodiscard]] std::size_t tensor_count() const { return tensors_.size(); }

  // ---- moves ----
  // Unsupported(kErrTensorNotRegistered) for unknown ids; kReasonAlreadyInTarget when the tensor
  // is there; Vram degraded to Ram (kReasonVramDegraded) when VRAM is unavailable; moves to SSD
  // need bytes (kErrSsdWithoutBacking) and a usable cache directory (created here).
  [[nodiscard]] MoveResult<MovePlan> plan_move(std::string_view id, MemoryTier target,
                                               const MemorySnapshot& snapshot) const;
  [[nodiscard]] MoveResult<void> apply_move(std::string_view id, const MovePlan& plan);

  // ---- test hooks ----
  void set_footprint_bytes_for_test(std::string_view id, std::uint64_t bytes);

  // ---- compression (off by default) ----
  void set_compression_policy(CompressionPolicy policy) { compression_ = std::move(policy); }
  [[nodiscard]] const CompressionPolicy& compression_policy() const { return compression_; }

  // ---- persistent cache (13.8.1) ----
  void attach_persistent_cache(PersistentHybridCache cache);
  [[nodiscard]] const PersistentHybridCache* persistent_cache() const;
  [[nodiscard]] const std::optional<CacheError>& last_persist_error() const { return last_persist_error_; }

  // ---- gradients (13.8.2) ----
  // Io(kErrPersistentCacheNotAttached) without a cache. Key "grad:<id>:len<n>", kind Gradient.
  [[nodiscard]] CacheResult<void> persist_gradient_to_ssd_cache(std::string_view grad_id,
                                                                std::span<const std::uint8_t> bytes,
                                                                std::uint64_t created_unix, bool overwrite);
  // NotFound when `grad_id` was never persisted through this manager.
  [[nodiscard]] CacheResult<Bytes> restore_gradient_from_ssd_cache(std::string_view grad_id);
  // True for ids persisted as gradients through this manager.
  [[nodiscard]] bool is_grad_id(std::string_view id) const;
  // The gradient's cache key, if persisted.
  [[nodiscard]] std::optional<std::string> gradient_cache_key_of(std::string_view grad_id) const;
  // Records `grad_id` as a gradient stored under `key` (used when restoring a checkpoint).
  void note_gradient_key(std::string_view grad_id, std::string key);

  // ---- placement hints (13.9.1) ----
  void set_desired_tier_hint(std::string_view id, std::optional<MemoryTier> tier);
  [[nodiscard]] std::optional<MemoryTier> get_desired_tier_hint(std::string_view id) const;
  void set_last_plan_summary(std::string_view id, std::optional<std::string> summary);
  [[nodiscard]] std::optional<std::string> get_last_plan_summary(std::string_view id) const;

  // ---- parts ----
  [[nodiscard]] VramAdapter& vram() { return *vram_; }
  [[nodiscard]] const VramAdapter& vram() const { return *vram_; }
  [[nodiscard]] const SsdCache& ssd_cache() const { return cache_; }

 private:
  struct Hints {
    std::optional<MemoryTier> desired_tier;
    std::optional<std::string> last_plan_summary;
  };

  [[nodiscard]] MoveResult<SsdFileBacking> spill_to_ssd(std::string_view id, std::span<const std::uint8_t> data);
  [[nodiscard]] MoveResult<Bytes> read_ssd(const SsdFileBacking& ssd) const;
  void persist_tensor_copy(std::string_view id, std::span<const std::uint8_t> data);
  void release_backing(std::string_view id, const StorageBacking& backing);

  std::map<std::string, TensorResidence, std::less<>> tensors_;
  SsdCache cache_;
  std::unique_ptr<VramAdapter> vram_;
  std::optional<PersistentHybridCache> persistent_;
  std::optional<CacheError> last_persist_error_;
  std::map<std::string, std::string, std::less<>> grad_cache_;
  std::map<std::string, Hints, std::less<>> hints_;
  CompressionPolicy compression_;
};

}  // namespace hybrid
