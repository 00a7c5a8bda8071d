#include "common/edit_distance.hpp"

#include <algorithm>
#include <vector>

namespace common {

std::size_t osa_distance(std::string_view a, std::string_view b) {
  const std::size_t n = b.size();
  if (a.empty()) return n;
  if (n == 0) return a.size();
  // Rows i-2, i-1 and i of the (|a|+1) x (|b|+1) table; a transposition looks two rows back.
  std::vector<std::size_t> before(n + 1), prev(n + 1), cur(n + 1);
  for (std::size_t j = 0; j <= n; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, before[j - 2] + 1);
      cur[j] = v;
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[n];
}

}  // namespace common
