#include "hybrid/explain/narrative.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <optional>
#include <utility>

#include "hybrid/explain/decision_factors.hpp"
#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

namespace {

std::optional<float> weight_of(const StructuredDecisionExplanation& s, DecisionFactorKind kind) {
  for (const auto& f : s.factors) {
    if (f.kind == kind) return f.weight;
  }
  return std::nullopt;
}

// The strength of a success record is judged on its confidence (the Wilson lower bound), not on
// the raw rate: one success out of one is a rate of 1.00 and a confidence of 0.21.
const char* success_phrase(float confidence) { return confidence >= 0.75F ? "strong" : "moderate"; }

std::string times(std::uint32_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

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

  const float drift = weight_of(structured, DecisionFactorKind::drift_penalty).value_or(0.0F);
  // The evidence row's backend is named, so this paragraph and the first one (which may speak
  // of the other backend's drift) never seem to contradict each other.
  const std::string backend(display_name(structured.evidence_backend));
  const std::uint32_t n = structured.evidence_episodes, ok = structured.evidence_successes;
  std::string p2;
  // The success rate only ever backs the confidence; the learned value decides (the first
  // paragraph). The other backend's record, when the chosen one has none, backs nothing.
  if (structured.evidence_backend != structured.recommended_backend) {
    p2 = std::string(display_name(structured.recommended_backend)) +
         " has not been observed in this context; the evidence is the " + backend + "'s record: " +
         std::to_string(ok) + " of " + std::to_string(n) +
         " executions succeeded. A success rate does not decide the choice. ";
  } else if (structured.confidence >= kFirmConfidence) {
    p2 = std::string("The confidence rests on a ") + success_phrase(structured.confidence) + " historical " + backend +
         " success rate under similar memory conditions (" + std::to_string(ok) + " of " + std::to_string(n) +
         " executions succeeded). ";
  } else if (n < kFullObservationCount / 5) {
    p2 = "The evidence is thin: " + backend + " was observed only " + times(n) + " in this context (" +
         std::to_string(ok) + " successful), too few for a firm conclusion. ";
  } else {
    p2 = "The historical " + backend + " success rate is weak: " + std::to_string(ok) + " of " + std::to_string(n) +
         " executions succeeded. ";
  }
  p2 += drift > 0.0F ? "Drift or instability has been observed in " + backend + " execution in this context."
                     : "No significant drift or instability has been observed in " + backend +
                           " execution in this context.";

  static constexpr std::array<std::pair<DecisionFactorKind, const char*>, 4> kLabels{{
      {DecisionFactorKind::historical_success_rate, "historical success"},
      {DecisionFactorKind::drift_penalty, "drift impact"},
      {DecisionFactorKind::observation_count, "observation count"},
      {DecisionFactorKind::memory_stability, "memory stability"},
  }};
  std::string p3 = "Key contributing factors:";
  bool first = true;
  for (const auto& [kind, label] : kLabels) {
    const auto w = weight_of(structured, kind);
    if (!w) continue;
    p3 += std::string(first ? " " : ", ") + label + " (" + influence_label(*w) + " influence)";
    first = false;
  }
  p3 += ".";
  if (structured.evidence_backend != structured.recommended_backend) {
    p3 += " They describe the " + backend + "'s record, not the " +
          std::string(display_name(structured.recommended_backend)) + "'s.";
  }
  if (structured.confidence < kFirmConfidence) {
    p3 += " These weights rest on " + std::to_string(n) + (n == 1 ? " observation" : " observations") +
          " and are provisional.";
  }

  out.narrative = p1 + "\n\n" + p2 + "\n\n" + p3;
  return out;
}

}  // namespace hybrid
