#pragma once
// "Why did Atenia choose CPU or GPU for this context?" in two or three sentences (APX 13.11.1).
#include <optional>
#include <string>

#include "hybrid/explain/learning_snapshot.hpp"

namespace hybrid {

struct DecisionExplanation {
  LearningContextSnapshot context;
  BackendChoice recommended_backend = BackendChoice::cpu;
  float confidence = 0.0F;  // observation_confidence() of the evidence row, in [0, 1]
  std::string explanation;
};

// Nothing when the trainer has no row for `context`. Read-only and deterministic.
[[nodiscard]] std::optional<DecisionExplanation> explain_decision(const SelfTrainer& trainer,
                                                                  const LearningContextSnapshot& context);

}  // namespace hybrid
