#include "hybrid/explain/representative_entry.hpp"

#include <cmath>

namespace hybrid {

float clamp_confidence(float v) {
  if (!(v > 0.0F)) return 0.0F;
  return v > 1.0F ? 1.0F : v;
}

float observation_confidence(std::uint32_t successes, std::uint32_t episodes) {
  if (episodes == 0) return 0.0F;
  constexpr double z = 1.96;
  const double n = episodes;
  const double p = static_cast<double>(successes > episodes ? episodes : successes) / n;
  const double centre = p + z * z / (2 * n);
  const double spread = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return clamp_confidence(static_cast<float>((centre - spread) / (1 + z * z / n)));
}

std::optional<LearningEntrySnapshot> representative_entry(const LearningSnapshot& snap,
                                                          const LearningContextSnapshot& ctx) {
  std::optional<LearningEntrySnapshot> best;
  for (const auto& e : snap.entries) {
    if (!(e.context == ctx)) continue;
    const bool recommended = e.backend == e.recommended_backend && e.stats.episodes > 0;
    const bool best_recommended = best && best->backend == best->recommended_backend && best->stats.episodes > 0;
    if (!best || (recommended && !best_recommended) ||
        (recommended == best_recommended && e.stats.episodes > best->stats.episodes)) {
      best = e;
    }
  }
  return best;
}

}  // namespace hybrid
