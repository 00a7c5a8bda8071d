#pragma once
// Both explanation layers describe the same row of the snapshot, the evidence for the
// decision being explained: the row of the backend the trainer recommends for the context.
// Only when that backend has no row (the trainer recommends it by default) is the other
// backend's row the evidence.
#include <optional>

#include "hybrid/explain/learning_snapshot.hpp"

namespace hybrid {

[[nodiscard]] std::optional<LearningEntrySnapshot> representative_entry(const LearningSnapshot& snap,
                                                                         const LearningContextSnapshot& ctx);

[[nodiscard]] float clamp_confidence(float v);  // NaN -> 0

// How sure the explanation is of the evidence row's success rate: the lower bound of the
// 95% Wilson score interval for `successes` of `episodes` (z = 1.96). It grows with the
// number of observations: 4 of 4 gives 0.51, 20 of 20 gives 0.84, 100 of 100 gives 0.96;
// 0 without observations.
[[nodiscard]] float observation_confidence(std::uint32_t successes, std::uint32_t episodes);

}  // namespace hybrid
