#include "common/edit_distance.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

// The textbook full-table definition, as an independent oracle.
std::size_t osa_table(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0U : 1U)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

TEST_CASE("edit_distance: known distances") {
  CHECK(common::osa_distance("", "") == 0);
  CHECK(common::osa_distance("", "abc") == 3);
  CHECK(common::osa_distance("abc", "") == 3);
  CHECK(common::osa_distance("verify", "verify") == 0);
  CHECK(common::osa_distance("verfiy", "verify") == 1);  // one adjacent transposition
  CHECK(common::osa_distance("kitten", "sitting") == 3);
  CHECK(common::osa_distance("ca", "abc") == 3);  // OSA, not full Damerau (which gives 2)
  CHECK(common::osa_distance("simulte", "simulate") == 1);
}

TEST_CASE("edit_distance: equals the full-table definition on every pair of short strings over {a,b,c}") {
  std::vector<std::string> words{""};
  for (std::size_t len = 1; len <= 4; ++len) {
    const std::size_t before = words.size();
    for (std::size_t w = 0; w < before; ++w) {
      if (words[w].size() != len - 1) continue;
      for (const char c : {'a', 'b', 'c'}) words.push_back(words[w] + c);
    }
  }
  REQUIRE(words.size() == 1 + 3 + 9 + 27 + 81);
  for (const auto& a : words) {
    for (const auto& b : words) {
      REQUIRE(common::osa_distance(a, b) == osa_table(a, b));
    }
  }
}
