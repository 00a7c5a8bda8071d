#include "cli_common/nearest_name.hpp"

#include <algorithm>

#include "common/edit_distance.hpp"

namespace cli_common {

std::size_t reach_of(std::string_view candidate) { return std::max<std::size_t>(2, (candidate.size() + 2) / 3); }

std::optional<std::string_view> nearest_name(std::string_view typed, std::span<const std::string_view> candidates) {
  // A typed word far longer than any name is no typo of one; the cut keeps the distance cheap.
  typed = typed.substr(0, 64);
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view c : candidates) {
    const std::size_t d = common::osa_distance(typed, c);
    if (d > reach_of(c)) continue;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace cli_common
