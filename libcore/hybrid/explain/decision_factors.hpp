#pragma once
// The same decision as decision_explanation, as four weighted factors for tools (APX 13.11.2).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hybrid/explain/learning_snapshot.hpp"

namespace hybrid {

enum class DecisionFactorKind : std::uint8_t {
  historical_success_rate,
  drift_penalty,
  observation_count,
  memory_stability,
};

[[nodiscard]] std::string_view to_string(DecisionFactorKind k);

struct DecisionFactor {
  DecisionFactorKind kind = DecisionFactorKind::historical_success_rate;
  float weight = 0.0F;  // in [0, 1]
  std::string description;
};

struct StructuredDecisionExplanation {
  LearningContextSnapshot context;
  BackendChoice recommended_backend = BackendChoice::cpu;
  float confidence = 0.0F;  // observation_confidence of the evidence row
  BackendChoice evidence_backend = BackendChoice::cpu;  // whose row the factors describe
  std::uint32_t evidence_episodes = 0;   // that row's observations, and how many succeeded:
  std::uint32_t evidence_successes = 0;  // the narrative quotes them when the evidence is thin
  std::vector<DecisionFactor> factors;  // always the four kinds, in enum order
};

// Below this confidence (the Wilson lower bound of the evidence row's success rate) the
// evidence is too thin for any sentence that calls a backend strong, favoured or reliable:
// the explanation says so and quotes the counts instead.
inline constexpr float kFirmConfidence = 0.5F;

// An observation count at which ObservationCount reaches full weight.
inline constexpr float kFullObservationCount = 50.0F;

[[nodiscard]] std::optional<StructuredDecisionExplanation> explain_decision_structured(
    const SelfTrainer& trainer, const LearningContextSnapshot& context);

}  // namespace hybrid
