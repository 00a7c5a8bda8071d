#include "hybrid/checkpoint/warm_start.hpp"

#include <algorithm>
#include <tuple>

namespace hybrid {

namespace {

const TierDowngrade* downgrade_for(std::span<const DriftReport> drift, const std::string& id) {
  for (const DriftReport& r : drift) {
    if (r.entry_id.value != id) continue;
    for (const CheckpointDrift& d : r.drifts) {
      if (const auto* t = std::get_if<TierDowngrade>(&d)) return t;
    }
  }
  return nullptr;
}

struct ActionName {
  std::string operator()(const WarmKeep&) const { return "keep"; }
  std::string operator()(const WarmHintPromote& a) const { return std::string("promote(") + to_string(a.to) + ")"; }
  std::string operator()(const WarmDegradeSafe& a) const { return std::string("degrade(") + to_string(a.to) + ")"; }
};

}  // namespace

std::string to_string(const WarmStartAction& action) { return std::visit(ActionName{}, action); }

WarmStartPlan build_warm_start_plan(const HybridMemoryManager& mem, const HybridCheckpoint& checkpoint,
                                    std::span<const DriftReport> drift, bool gpu_available) {
  WarmStartPlan plan;
  std::size_t keep = 0, promote = 0, degrade = 0;
  for (const CheckpointEntry& e : checkpoint.entries) {
    WarmStartDecision d;
    d.id = e.id;
    d.is_grad = e.is_grad;
    const bool known = mem.get_tier(e.id).has_value();
    d.current = known ? *mem.get_tier(e.id) : e.tier;
    d.desired = known ? mem.hints().desired_tier(e.id) : e.desired_tier;

    if (const TierDowngrade* t = downgrade_for(drift, e.id)) {
      d.action = WarmDegradeSafe{t->restored};
      d.reason = std::string("Tier downgraded from ") + to_string(t->desired) + " to " + to_string(t->restored) +
                 " during restore drift";
    } else if (d.desired == MemoryTier::vram) {
      if (gpu_available) {
        d.action = WarmHintPromote{MemoryTier::vram};
        d.reason = "Desired VRAM and GPU available";
      } else {
        d.action = WarmDegradeSafe{MemoryTier::ram};
        d.reason = "Desired VRAM but GPU unavailable";
      }
    } else if (d.desired == MemoryTier::ram && d.current == MemoryTier::ssd) {
      d.action = WarmHintPromote{MemoryTier::ram};
      d.reason = "Prefer RAM for faster access when safe";
    } else if (d.desired) {
      // Cpu and Ssd per the seed; also Ram when not on SSD, which the seed leaves open.
      d.action = WarmKeep{};
      d.reason = std::string("Desired tier is ") + to_string(*d.desired) + " and current placement is " +
                 to_string(d.current) + ", no change planned";
    } else {
      d.action = WarmKeep{};
      d.reason = "No desired tier hint";
    }
    keep += std::holds_alternative<WarmKeep>(d.action) ? 1 : 0;
    promote += std::holds_alternative<WarmHintPromote>(d.action) ? 1 : 0;
    degrade += std::holds_alternative<WarmDegradeSafe>(d.action) ? 1 : 0;
    plan.decisions.push_back(std::move(d));
  }
  std::sort(plan.decisions.begin(), plan.decisions.end(), [](const WarmStartDecision& a, const WarmStartDecision& b) {
    return std::tie(a.is_grad, a.id) < std::tie(b.is_grad, b.id);
  });
  plan.summary = "warm_start: keep=" + std::to_string(keep) + " promote=" + std::to_string(promote) +
                 " degrade=" + std::to_string(degrade);
  return plan;
}

}  // namespace hybrid
