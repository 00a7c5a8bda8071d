#include "hybrid/offload/smart_offload_engine.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace hybrid {

namespace {

enum class Pressure : std::uint8_t { both, vram_only, ram_only, none };

Pressure classify(const MemorySnapshot& snapshot, float vram_high, float ram_high) {
  const bool vram = snapshot.vram.pressure.value_or(0.0F) >= vram_high;
  const bool ram = snapshot.ram.pressure.value_or(0.0F) >= ram_high;
  if (vram && ram) return Pressure::both;
  if (vram) return Pressure::vram_only;
  if (ram) return Pressure::ram_only;
  return Pressure::none;
}

// Whether a tensor in `tier` is a candidate under `pressure`, and the action that offloads it.
std::optional<OffloadAction::Kind> action_for(Pressure pressure, std::optional<MemoryTier> tier) {
  if (!tier) return std::nullopt;
  switch (pressure) {
    case Pressure::both:
      if (*tier == MemoryTier::vram || *tier == MemoryTier::ram) return OffloadAction::Kind::move_to_ssd;
      return std::nullopt;
    case Pressure::vram_only:
      if (*tier == MemoryTier::vram) return OffloadAction::Kind::move_to_ram;
      return std::nullopt;
    case Pressure::ram_only:
      if (*tier == MemoryTier::ram) return OffloadAction::Kind::move_to_ssd;
      return std::nullopt;
    case Pressure::none: return std::nullopt;
  }
  return std::nullopt;
}

std::string base_reason(Pressure pressure, bool any_action) {
  switch (pressure) {
    case Pressure::both: return kOffloadBothHigh;
    case Pressure::vram_only: return any_action ? kOffloadVramHigh : kOffloadVramHighNothing;
    case Pressure::ram_only: return any_action ? kOffloadRamHigh : kOffloadRamHighNothing;
    case Pressure::none: return kOffloadNotNeeded;
  }
  return kOffloadNotNeeded;
}

struct Candidate {
  std::string id;
  OffloadAction::Kind kind;
  std::uint64_t score;
};

}  // namespace

OffloadPlan SmartOffloadEngine::plan(const MemorySnapshot& snapshot, std::span<const std::string> tensor_ids,
                                     const HybridMemoryManager& mem) const {
  const Pressure pressure = classify(snapshot, cfg_.vram_high, cfg_.ram_high);
  OffloadPlan out;
  std::set<std::string, std::less<>> seen;
  for (const auto& id : tensor_ids) {
    if (!seen.insert(id).second) continue;
    if (auto kind = action_for(pressure, mem.get_tier(id))) out.actions.push_back({*kind, id});
  }
  out.reason = base_reason(pressure, !out.actions.empty());
  return out;
}

bool SmartOffloadEngine::can_schedule(const std::string& id, std::uint64_t tick) const {
  auto it = last_moved_.find(id);
  if (it == last_moved_.end()) return true;
  const std::uint64_t last = it->second;
  if (tick <= last) return false;
  return tick - last >= cfg_.cooldown_ticks;
}

OffloadPlan SmartOffloadEngine::plan_with_tick(const MemorySnapshot& snapshot,
                                               std::span<const std::string> tensor_ids,
                                               const HybridMemoryManager& mem, std::uint64_t tick) {
  const Pressure pressure = classify(snapshot, cfg_.vram_high, cfg_.ram_high);
  OffloadPlan out;
  if (pressure == Pressure::none) {
    const bool vram_low = snapshot.vram.pressure.value_or(0.0F) <= cfg_.vram_low;
    const bool ram_low = snapshot.ram.pressure.value_or(0.0F) <= cfg_.ram_low;
    out.reason = (vram_low && ram_low) ? kOffloadNotNeeded : kOffloadHysteresisBand;
    return out;
  }

  std::vector<Candidate> candidates;
  std::set<std::string, std::less<>> seen;
  bool skipped_for_cooldown = false;
  for (const auto& id : tensor_ids) {
    if (!seen.insert(id).second) continue;
    auto kind = action_for(pressure, mem.get_tier(id));
    if (!kind) continue;
    if (!can_schedule(id, tick)) {
      skipped_for_cooldown = true;
      continue;
    }
    candidates.push_back({id, *kind, static_cast<std::uint64_t>(mem.tensor_len_bytes(id).value_or(0))});
  }
  std::ranges::sort(candidates, [](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.id < b.id;
  });

  const std::size_t take = std::min(candidates.size(), cfg_.max_actions_per_tick);
  for (std::size_t i = 0; i < take; ++i) {
    out.actions.push_back({candidates[i].kind, candidates[i].id});
    last_moved_[candidates[i].id] = tick;
  }

  out.reason = base_reason(pressure, !out.actions.empty());
  if (skipped_for_cooldown) out.reason += kOffloadCooldownSuffix;
  if (!candidates.empty()) {
    out.reason += kOffloadPriorityPrefix + std::to_string(take) + "/" + std::to_string(candidates.size());
  }
  return out;
}

common::Status SmartOffloadEngine::apply(const MemorySnapshot& snapshot, const OffloadPlan& plan,
                                         HybridMemoryManager& mem) const {
  auto move = [&](const std::string& id, MemoryTier target) -> common::Status {
    auto move_plan = mem.plan_move(id, target, snapshot);
    if (!move_plan) return move_plan.error();
    return mem.apply_move(id, *move_plan);
  };
  for (const auto& action : plan.actions) {
    if (action.kind == OffloadAction::Kind::move_to_ram) {
      if (auto r = move(action.tensor_id, MemoryTier::ram); !r) return r;
      continue;
    }
    if (mem.get_tier(action.tensor_id) == MemoryTier::vram) {
      if (auto r = move(action.tensor_id, MemoryTier::ram); !r) return r;
    }
    if (auto r = move(action.tensor_id, MemoryTier::ssd); !r) return r;
  }
  return {};
}

std::optional<std::uint64_t> SmartOffloadEngine::last_moved(const std::string& id) const {
  auto it = last_moved_.find(id);
  if (it == last_moved_.end()) return std::nullopt;
  return it->second;
}

}  // namespace hybrid
