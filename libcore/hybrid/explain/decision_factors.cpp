#include "hybrid/explain/decision_factors.hpp"

#include <array>
#include <charconv>

#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

namespace {

// "0.80": fixed, two decimals, independent of the locale.
std::string two_decimals(float v) {
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 2);
  return {buf.data(), res.ptr};
}

float ratio(std::uint32_t num, std::uint32_t den) {
  return den == 0 ? 0.0F : static_cast<float>(num) / static_cast<float>(den);
}

}  // namespace

std::string_view to_string(DecisionFactorKind k) {
  switch (k) {
    case DecisionFactorKind::historical_success_rate: return "historical_success_rate";
    case DecisionFactorKind::drift_penalty: return "drift_penalty";
    case DecisionFactorKind::observation_count: return "observation_count";
    case DecisionFactorKind::memory_stability: return "memory_stability";
  }
  return "unknown";
}

std::optional<StructuredDecisionExplanation> explain_decision_structured(const SelfTrainer& trainer,
                                                                         const LearningContextSnapshot& context) {
  const LearningSnapshot snap = learning_snapshot(trainer);
  const auto chosen = representative_entry(snap, context);
  if (!chosen) return std::nullopt;
  const auto& s = chosen->stats;
  const std::string n = std::to_string(s.episodes);
  const std::string backend(display_name(chosen->backend));

  const float success = clamp_confidence(ratio(s.successes, s.episodes));
  const float drift = clamp_confidence(ratio(s.drift_events, s.episodes));
  const float observations = clamp_confidence(static_cast<float>(s.episodes) / kFullObservationCount);

  StructuredDecisionExplanation out;
  out.context = context;
  out.recommended_backend = trainer.recommend_for_bucket(to_bucket(context));
  out.confidence = observation_confidence(s.successes, s.episodes);
  out.evidence_backend = chosen->backend;
  out.evidence_episodes = s.episodes;
  out.evidence_successes = s.successes;
  out.factors.push_back({DecisionFactorKind::historical_success_rate, success,
                         "Historical " + backend + " success rate for this context is " + two_decimals(success) + " (" +
                             std::to_string(s.successes) + " successes over " + n + " episodes)."});
  out.factors.push_back({DecisionFactorKind::drift_penalty, drift,
                         s.drift_events > 0 ? "Drift was observed in " + std::to_string(s.drift_events) + " of " + n +
                                                  " " + backend + " episodes, which indicates potential instability."
                                            : "No drift has been observed in " + backend + " execution in this context."});
  out.factors.push_back({DecisionFactorKind::observation_count, observations,
                         "The decision rests on " + n + " observations; more observations increase confidence."});
  out.factors.push_back({DecisionFactorKind::memory_stability, clamp_confidence(1.0F - drift),
                         s.drift_events == 0
                             ? std::string("Executions have been stable under the current memory pressure.")
                             : std::string("Some instability was observed under the current memory pressure "
                                           "because of drift.")});
  return out;
}

}  // namespace hybrid
