#pragma once
// "Why did Atenia choose CPU or GPU for this context?" in two or three sentences (APX 13.11.1):
// the comparison the trainer made (SelfTrainer::value_for of both backends), then what the
// confidence in the chosen backend rests on.
#include <optional>
#include <string>

#include "hybrid/explain/learning_snapshot.hpp"

namespace hybrid {

struct DecisionExplanation {
  LearningContextSnapshot context;
  BackendChoice recommended_backend = BackendChoice::cpu;
  // observation_confidence() of the chosen backend's own row, in [0, 1]; 0 when it has none
  // (the evidence row may then be the other backend's: decision_factors.hpp).
  float confidence = 0.0F;
  std::string explanation;
};

// Nothing when the trainer has no row for `context`. Read-only and deterministic.
[[nodiscard]] std::optional<DecisionExplanation> explain_decision(const SelfTrainer& trainer,
                                                                  const LearningContextSnapshot& context);

}  // namespace hybrid
