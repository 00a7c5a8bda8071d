#pragma once
// Both explanation layers describe the same row of the snapshot: the one with the most
// episodes for the context. A tie goes to the row of the backend the trainer recommends,
// since that row is the evidence for the decision being explained.
#include <optional>

#include "hybrid/explain/learning_snapshot.hpp"

namespace hybrid {

[[nodiscard]] std::optional<LearningEntrySnapshot> representative_entry(const LearningSnapshot& snap,
                                                                         const LearningContextSnapshot& ctx);

[[nodiscard]] float clamp_confidence(float v);  // NaN -> 0

}  // namespace hybrid
