#pragma once
// Where a tensor of a given size should live on a given machine: the seed's placement rules
// (APX 13.1.1-13.1.2, the thresholds in placement::) applied to the pressure each tier would
// have AFTER the tensor is placed there, and only to tiers with room for it. Unlike the seed's
// pressure-only model (which could answer "CPU" for a tensor), this always names a memory tier
// (VRAM, RAM or SSD) or says that none has room, and its reason quotes the numbers it decided from.
#include <cstdint>
#include <optional>
#include <string>

#include "hybrid/placement/placement_types.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

// A tensor is too big for a GPU's VRAM when it would take more than 1/kHugeShareOfFreeVram of
// the GPU's free memory (the seed's absolute 512 MiB applies only when free VRAM is unknown).
inline constexpr std::uint64_t kHugeShareOfFreeVram = 2;

// One tier as the decision saw it. Free/total are absent when the snapshot does not know
// them; pressure_after is absent when neither the sizes nor the snapshot's pressure say it.
struct TierCapacity {
  std::optional<std::uint64_t> free_bytes;
  std::optional<std::uint64_t> total_bytes;
  std::optional<float> pressure_now;
  std::optional<float> pressure_after;
  bool fits = false;  // free_bytes >= size (unknown free space counts as fitting only for SSD)
};

struct CapacityDecision {
  std::optional<PlacementTarget> target;  // Vram, Ram or Ssd; absent when no tier has room
  std::optional<std::string> device_id;   // the GPU for Vram
  std::string reason;                     // English, with the numbers
  std::uint64_t bytes = 0;
  bool compute_heavy = false;
  std::optional<TierCapacity> vram;  // absent without a GPU
  TierCapacity ram;
  TierCapacity ssd;
};

[[nodiscard]] CapacityDecision decide_with_capacity(const TensorProfile& tensor, const GlobalHardwareSnapshot& hw);

}  // namespace hybrid
