#include "hybrid/explain/spill_explanation.hpp"

#include <algorithm>

namespace hybrid {
namespace {

SpillEvidence evidence_of(const SpillStatsEntry& e) {
  return {e.decision, e.stats.count, e.stats.mean_score(), e.stats.moved_bytes};
}

std::string spill_runs(std::uint32_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

std::string spill_choice(const SpillEvidence& e) {
  return "tier " + e.decision.tier + " with codec " + e.decision.codec + " at " + std::to_string(e.kib_per_s) + " KiB/s (" + spill_runs(e.runs) + ")";
}

}  // namespace

std::optional<SpillExplanation> explain_spill(const SpillTrainer& trainer, std::uint8_t ram_band) {
  const std::optional<SpillStatsEntry> best = trainer.recommend(ram_band);
  if (!best) return std::nullopt;
  SpillExplanation out;
  out.ram_band = ram_band;
  out.recommended = evidence_of(*best);
  for (const SpillStatsEntry& e : trainer.stats_for_band(ram_band)) {
    if (e.stats.count > 0) out.evidence.push_back(evidence_of(e));
  }
  // Stable: entries arrive in (tier, codec) order, the last key of the ordering.
  std::stable_sort(out.evidence.begin(), out.evidence.end(), [](const SpillEvidence& a, const SpillEvidence& b) {
    return a.kib_per_s != b.kib_per_s ? a.kib_per_s > b.kib_per_s : a.runs > b.runs;
  });
  out.explanation = "In RAM band " + std::to_string(ram_band) + ", spilled data goes to " + spill_choice(out.recommended) + ": ";
  if (out.evidence.size() == 1) {
    out.explanation += "the only choice with measured runs.";
  } else {
    out.explanation += "the fastest of " + std::to_string(out.evidence.size()) + " measured choices; next: " + spill_choice(out.evidence[1]) + ".";
  }
  return out;
}

}  // namespace hybrid
