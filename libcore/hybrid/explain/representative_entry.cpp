#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

float clamp_confidence(float v) {
  if (!(v > 0.0F)) return 0.0F;
  return v > 1.0F ? 1.0F : v;
}

std::optional<LearningEntrySnapshot> representative_entry(const LearningSnapshot& snap,
                                                          const LearningContextSnapshot& ctx) {
  std::optional<LearningEntrySnapshot> best;
  for (const auto& e : snap.entries) {
    if (!(e.context == ctx)) continue;
    if (!best || e.stats.episodes > best->stats.episodes ||
        (e.stats.episodes == best->stats.episodes && to_kind(e.backend) == e.recommended_backend)) {
      best = e;
    }
  }
  return best;
}

}  // namespace hybrid
