#pragma once
// APX 13.9.2: drift between what a checkpoint intended (desired tier, plan summary) and what
// a restore could do. Observability only: detecting drift never changes a restore.
// Reports go to a DriftCollector the caller owns (no process-wide registry).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/memory/memory_types.hpp"

namespace hybrid {

struct MissingBackend {  // the desired tier needs a backend (VRAM/GPU) this host lacks
  MemoryTier desired = MemoryTier::vram;
  friend bool operator==(const MissingBackend&, const MissingBackend&) = default;
};
struct TierDowngrade {  // restored on a lower tier than desired
  MemoryTier desired = MemoryTier::vram;
  MemoryTier restored = MemoryTier::ram;
  friend bool operator==(const TierDowngrade&, const TierDowngrade&) = default;
};
struct PlanMismatch {  // the plan summary speaks of a GPU this host lacks
  std::string summary;
  friend bool operator==(const PlanMismatch&, const PlanMismatch&) = default;
};

using CheckpointDrift = std::variant<MissingBackend, TierDowngrade, PlanMismatch>;

struct DriftReport {
  TensorId entry_id;
  std::vector<CheckpointDrift> drifts;
};

// One line for logs and tools: "t1: missing_backend(desired=vram), tier_downgrade(vram->ram)".
[[nodiscard]] std::string to_string(const DriftReport& report);
// One drift: "missing_backend(desired=vram)".
[[nodiscard]] std::string to_string(const CheckpointDrift& drift);

class DriftCollector {
 public:
  void push(DriftReport report) { reports_.push_back(std::move(report)); }
  void clear() { reports_.clear(); }
  [[nodiscard]] const std::vector<DriftReport>& reports() const { return reports_; }

 private:
  std::vector<DriftReport> reports_;
};

// The rules of 13.9.2 for one entry restored on `actual_tier`: MissingBackend when VRAM is
// desired without a GPU; TierDowngrade when VRAM is desired and RAM was restored;
// PlanMismatch when the summary mentions "GPU" (any case) without a GPU.
[[nodiscard]] std::optional<DriftReport> detect_drift(const CheckpointEntry& entry, MemoryTier actual_tier,
                                                      bool gpu_available);

// True when `text` contains "GPU" in any letter case (ASCII, locale-independent).
[[nodiscard]] bool mentions_gpu(std::string_view text);

// Checkpoint restore is hardware-agnostic: VRAM entries always land in RAM, so drift is judged
// as on a host without a GPU (13.9.2).
inline constexpr bool kRestoreAssumesGpu = false;

}  // namespace hybrid
