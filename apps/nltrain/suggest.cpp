#include "suggest.hpp"

#include <algorithm>
#include <string>

namespace nltrain {
namespace {

std::size_t osa(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string_view> suggest(std::string_view given, const std::vector<std::string_view>& names) {
  if (given.size() > 64) return std::nullopt;
  for (std::string_view n : names)
    if (!given.empty() && (n.starts_with(given) || given.starts_with(n))) return n;
  std::optional<std::string_view> best;
  std::size_t best_d = std::max<std::size_t>(2, given.size() / 3) + 1;
  for (std::string_view n : names) {
    const std::size_t dist = osa(given, n);
    if (dist < best_d) best_d = dist, best = n;
  }
  return best;
}

}  // namespace nltrain
