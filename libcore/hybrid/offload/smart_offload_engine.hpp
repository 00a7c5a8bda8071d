#pragma once
// APX 13.5.0-13.5.2: propose and apply offloads under memory pressure.
//
// plan() is the 13.5.0 policy: *_high thresholds only, no cooldown, no budget.
// plan_with_tick() adds hysteresis (no new offloads unless a tier is at/above its high mark),
// a per-tensor cooldown in logical ticks, and priority: eligible tensors sorted by size
// descending then id ascending, at most max_actions_per_tick of them taken.
// Pressure that the snapshot does not report counts as 0.
//
// The cooldown memory (tensor -> tick of its last planned action) lives in the engine the caller
// owns; two engines never share it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/offload/offload_plan.hpp"

namespace hybrid {

struct OffloadConfig {
  float vram_high = 0.95F;
  float vram_low = 0.85F;
  float ram_high = 0.95F;
  float ram_low = 0.85F;
  std::uint64_t cooldown_ticks = 5;
  std::size_t max_actions_per_tick = 4;

  friend bool operator==(const OffloadConfig&, const OffloadConfig&) = default;
};

class SmartOffloadEngine {
 public:
  SmartOffloadEngine() = default;
  explicit SmartOffloadEngine(OffloadConfig cfg) : cfg_(cfg) {}

  [[nodiscard]] const OffloadConfig& config() const { return cfg_; }
  [[nodiscard]] OffloadConfig& config() { return cfg_; }

  // 13.5.0 rules: both high -> MoveToSsd for Vram/Ram tensors; VRAM high -> MoveToRam for Vram
  // tensors; RAM high -> MoveToSsd for Ram tensors; else nothing. "High" means >= threshold.
  [[nodiscard]] OffloadPlan plan(const MemorySnapshot& snapshot, std::span<const std::string> tensor_ids,
                                 const HybridMemoryManager& mem) const;

  // 13.5.1-13.5.2. Records `tick` as the last move of every tensor it plans an action for.
  [[nodiscard]] OffloadPlan plan_with_tick(const MemorySnapshot& snapshot, std::span<const std::string> tensor_ids,
                                           const HybridMemoryManager& mem, std::uint64_t tick);

  // MoveToRam: Vram/any -> Ram. MoveToSsd: Vram -> Ram first, then -> Ssd. Stops at the first
  // common::Error, leaving earlier actions applied.
  [[nodiscard]] common::Status apply(const MemorySnapshot& snapshot, const OffloadPlan& plan,
                                     HybridMemoryManager& mem) const;

  // The tick of the last action planned for `id`, if any.
  [[nodiscard]] std::optional<std::uint64_t> last_moved(const std::string& id) const;

 private:
  [[nodiscard]] bool can_schedule(const std::string& id, std::uint64_t tick) const;

  OffloadConfig cfg_;
  std::map<std::string, std::uint64_t, std::less<>> last_moved_;
};

}  // namespace hybrid
