#pragma once
// APX 13.2.0-13.2.3, 13.8.1: the registry of tensors, their tier and the
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
// A move that fails returns its common::Error and leaves the tensor's tier and bytes as they were.
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
#include "hybrid/memory/gradient_store.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/memory/placement_hints.hpp"
#include "hybrid/memory/ssd_cache.hpp"
#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid {

// Reasons of plans that callers may compare against.
inline constexpr const char* kReasonAlreadyInTarget = "Already in target tier";
inline constexpr const char* kReasonVramDegraded = "VRAM unavailable; degrading placement to RAM";
inline constexpr const char* kErrTensorNotRegistered = "Tensor not registered";
inline constexpr const char* kErrSsdWithoutBacking = "Cannot move tensor to SSD without backing data";
inline constexpr const char* kErrVramNotAvailableForDownload = "VRAM not available for download";

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
  [[nodiscard]] common::Status register_tensor_with_data(std::string_view id, Bytes data, MemoryTier initial);
  // Forgets `id`, deleting its SSD blob / freeing its VRAM (best-effort) and its hints.
  // False when unknown.
  bool remove_tensor(std::string_view id);

  // ---- queries ----
  [[nodiscard]] std::optional<MemoryTier> get_tier(std::string_view id) const;
  [[nodiscard]] std::optional<std::size_t> tensor_len_bytes(std::string_view id) const;
  [[nodiscard]] const TensorResidence* residence(std::string_view id) const;
  [[nodiscard]] const StorageBacking* backing(std::string_view id) const;
  // Registered ids, sorted.
  [[nodiscard]] std::vector<std::string> ids_for_checkpoint() const;
  [[nodiscard]] std::size_t tensor_count() const { return tensors_.size(); }

  // ---- moves ----
  // invalid_argument(kErrTensorNotRegistered) for unknown ids; kReasonAlreadyInTarget when the tensor
  // is there; Vram degraded to Ram (kReasonVramDegraded) when VRAM is unavailable; moves to SSD
  // need bytes (kErrSsdWithoutBacking) and a usable cache directory (created here).
  [[nodiscard]] common::Result<MovePlan> plan_move(std::string_view id, MemoryTier target,
                                                   const MemorySnapshot& snapshot) const;
  [[nodiscard]] common::Status apply_move(std::string_view id, const MovePlan& plan);

  // ---- compression (off by default) ----
  void set_compression_policy(CompressionPolicy policy) { compression_ = std::move(policy); }
  [[nodiscard]] const CompressionPolicy& compression_policy() const { return compression_; }

  // ---- persistent cache (13.8.1) ----
  void attach_persistent_cache(PersistentHybridCache cache);
  [[nodiscard]] const PersistentHybridCache* persistent_cache() const;
  [[nodiscard]] const std::optional<CacheError>& last_persist_error() const { return last_persist_error_; }

  // ---- gradients (13.8.2) and placement hints (13.9.1): components of their own ----
  // The gradient store shares the persistent cache attached above.
  [[nodiscard]] GradientStore& gradients() { return gradients_; }
  [[nodiscard]] const GradientStore& gradients() const { return gradients_; }
  // remove_tensor forgets a tensor's hints.
  [[nodiscard]] PlacementHints& hints() { return hints_; }
  [[nodiscard]] const PlacementHints& hints() const { return hints_; }

  // ---- parts ----
  [[nodiscard]] VramAdapter& vram() { return *vram_; }
  [[nodiscard]] const VramAdapter& vram() const { return *vram_; }
  [[nodiscard]] const SsdCache& ssd_cache() const { return cache_; }

 private:
  // Tests reach internals through this peer (defined only under tests/), not the public API.
  friend class HybridMemoryManagerTestPeer;

  [[nodiscard]] common::Result<SsdFileBacking> spill_to_ssd(std::string_view id, std::span<const std::uint8_t> data);
  [[nodiscard]] common::Result<Bytes> read_ssd(const SsdFileBacking& ssd) const;
  void persist_tensor_copy(std::string_view id, std::span<const std::uint8_t> data);
  void release_backing(std::string_view id, const StorageBacking& backing);

  std::map<std::string, TensorResidence, std::less<>> tensors_;
  SsdCache cache_;
  std::unique_ptr<VramAdapter> vram_;
  std::optional<PersistentHybridCache> persistent_;
  std::optional<CacheError> last_persist_error_;
  GradientStore gradients_;
  PlacementHints hints_;
  CompressionPolicy compression_;
};

}  // namespace hybrid
