#include "hybrid/checkpoint/checkpoint_drift.hpp"

namespace hybrid {

bool mentions_gpu(std::string_view s) {
  // ASCII upper-casing by hand: the C++ ctype functions depend on the locale.
  auto up = [&](std::size_t k) { return static_cast<char>(s[k] >= 'a' && s[k] <= 'z' ? s[k] - 32 : s[k]); };
  for (std::size_t i = 0; i + 3 <= s.size(); ++i) {
    if (up(i) == 'G' && up(i + 1) == 'P' && up(i + 2) == 'U') return true;
  }
  return false;
}

namespace {

struct Describe {
  std::string operator()(const MissingBackend& d) const {
    return std::string("missing_backend(desired=") + to_string(d.desired) + ")";
  }
  std::string operator()(const TierDowngrade& d) const {
    return std::string("tier_downgrade(") + to_string(d.desired) + "->" + to_string(d.restored) + ")";
  }
  std::string operator()(const PlanMismatch& d) const { return "plan_mismatch(" + d.summary + ")"; }
};

}  // namespace

std::string to_string(const CheckpointDrift& drift) { return std::visit(Describe{}, drift); }

std::string to_string(const DriftReport& report) {
  std::string out = report.entry_id.value + ":";
  const char* sep = " ";
  for (const auto& d : report.drifts) {
    out += sep + to_string(d);
    sep = ", ";
  }
  return out;
}

std::optional<DriftReport> detect_drift(const CheckpointEntry& entry, MemoryTier actual_tier, bool gpu_available) {
  DriftReport report{TensorId{entry.id}, {}};
  if (entry.desired_tier == MemoryTier::vram) {
    if (!gpu_available) report.drifts.emplace_back(MissingBackend{MemoryTier::vram});
    if (actual_tier == MemoryTier::ram) report.drifts.emplace_back(TierDowngrade{MemoryTier::vram, actual_tier});
  }
  if (entry.last_plan_summary && !gpu_available && mentions_gpu(*entry.last_plan_summary)) {
    report.drifts.emplace_back(PlanMismatch{*entry.last_plan_summary});
  }
  if (report.drifts.empty()) return std::nullopt;
  return report;
}

}  // namespace hybrid
