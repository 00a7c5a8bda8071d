#pragma once
// The text `atenia explain` prints: decision, evidence, factor breakdown (APX 13.11.3).
// Weights appear only as qualitative labels, never as raw numbers.
#include <string>

#include "hybrid/explain/decision_explanation.hpp"
#include "hybrid/explain/decision_factors.hpp"

namespace hybrid {

struct NarrativeExplanation {
  LearningContextSnapshot context;
  BackendChoice recommended_backend = BackendChoice::cpu;
  float confidence = 0.0F;
  std::string narrative;  // three paragraphs separated by blank lines
};

// "high" (>= 0.75), "medium" (>= 0.40) or "low".
[[nodiscard]] const char* influence_label(float weight);

[[nodiscard]] NarrativeExplanation build_narrative(const DecisionExplanation& text,
                                                   const StructuredDecisionExplanation& structured);

}  // namespace hybrid
