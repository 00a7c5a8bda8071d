#include "suggest.hpp"

#include <algorithm>
#include <string>

#include "common/edit_distance.hpp"

namespace nltrain {
std::optional<std::string_view> suggest(std::string_view given, const std::vector<std::string_view>& names) {
  if (given.size() > 64) return std::nullopt;
  for (std::string_view n : names)
    if (!given.empty() && (n.starts_with(given) || given.starts_with(n))) return n;
  std::optional<std::string_view> best;
  std::size_t best_d = std::max<std::size_t>(2, given.size() / 3) + 1;
  for (std::string_view n : names) {
    const std::size_t dist = common::osa_distance(given, n);
    if (dist < best_d) best_d = dist, best = n;
  }
  return best;
}

}  // namespace nltrain
