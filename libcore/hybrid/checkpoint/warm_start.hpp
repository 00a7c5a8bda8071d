#pragma once
// APX 13.9.4: after a restore, what the next planning tick should do with each entry, from
// the checkpoint, the restored hints and the drift reports. Plans only: nothing is moved and
// no lazy entry is materialized.
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace hybrid {

struct WarmKeep {
  friend bool operator==(const WarmKeep&, const WarmKeep&) = default;
};
struct WarmHintPromote {
  MemoryTier to = MemoryTier::ram;
  friend bool operator==(const WarmHintPromote&, const WarmHintPromote&) = default;
};
struct WarmDegradeSafe {
  MemoryTier to = MemoryTier::ram;
  friend bool operator==(const WarmDegradeSafe&, const WarmDegradeSafe&) = default;
};
using WarmStartAction = std::variant<WarmKeep, WarmHintPromote, WarmDegradeSafe>;

// "keep", "promote(vram)", "degrade(ram)".
[[nodiscard]] std::string to_string(const WarmStartAction& action);

struct WarmStartDecision {
  std::string id;
  bool is_grad = false;
  MemoryTier current = MemoryTier::ram;
  std::optional<MemoryTier> desired;
  WarmStartAction action;
  std::string reason;
};

struct WarmStartPlan {
  std::vector<WarmStartDecision> decisions;  // ordered by (is_grad, id)
  std::string summary;                       // "warm_start: keep=X promote=Y degrade=Z"
};

// Current tier and desired hint come from `mem` when it knows the id, else from the entry.
[[nodiscard]] WarmStartPlan build_warm_start_plan(const HybridMemoryManager& mem, const HybridCheckpoint& checkpoint,
                                                  std::span<const DriftReport> drift, bool gpu_available);

}  // namespace hybrid
