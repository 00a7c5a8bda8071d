#include "hybrid/explain/narrative.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

namespace {

std::optional<float> weight_of(const StructuredDecisionExplanation& s, DecisionFactorKind kind) {
  for (const auto& f : s.factors) {
    if (f.kind == kind) return f.weight;
  }
  return std::nullopt;
}

const char* success_phrase(float w) {
  if (w >= 0.75F) return "strong";
  if (w >= 0.40F) return "moderate";
  return "limited";
}

}  // namespace

const char* influence_label(float weight) {
  if (weight >= 0.75F) return "high";
  if (weight >= 0.40F) return "medium";
  return "low";
}

NarrativeExplanation build_narrative(const DecisionExplanation& text, const StructuredDecisionExplanation& structured) {
  NarrativeExplanation out;
  out.context = text.context;
  out.recommended_backend = text.recommended_backend;
  out.confidence = clamp_confidence(text.confidence);
  const long percent = std::lround(out.confidence * 100.0F);

  std::string p1 = "Atenia selected " + std::string(display_name(text.recommended_backend)) +
                   " execution with a confidence of " + std::to_string(percent) + "%. " + text.explanation;

  const float success = weight_of(structured, DecisionFactorKind::HistoricalSuccessRate).value_or(0.0F);
  const float drift = weight_of(structured, DecisionFactorKind::DriftPenalty).value_or(0.0F);
  // The evidence row's backend is named, so this paragraph and the first one (which may speak
  // of the other backend's drift) never seem to contradict each other.
  const std::string backend(display_name(structured.evidence_backend));
  std::string p2 = std::string("The decision is based on a ") + success_phrase(success) + " historical " + backend +
                   " success rate under similar memory conditions. " +
                   (drift > 0.0F ? "Drift or instability has been observed in " + backend + " execution in this context."
                                 : "No significant drift or instability has been observed in " + backend +
                                       " execution in this context.");

  static constexpr std::array<std::pair<DecisionFactorKind, const char*>, 4> kLabels{{
      {DecisionFactorKind::HistoricalSuccessRate, "historical success"},
      {DecisionFactorKind::DriftPenalty, "drift impact"},
      {DecisionFactorKind::ObservationCount, "observation count"},
      {DecisionFactorKind::MemoryStability, "memory stability"},
  }};
  std::string p3 = "Key contributing factors include";
  for (const auto& [kind, label] : kLabels) {
    const auto w = weight_of(structured, kind);
    if (!w) continue;
    p3 += std::string(" ") + label + " factor has " + influence_label(*w) + " influence.";
  }

  out.narrative = p1 + "\n\n" + p2 + "\n\n" + p3;
  return out;
}

}  // namespace hybrid
