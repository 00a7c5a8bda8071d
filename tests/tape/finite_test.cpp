#include "tape/finite.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

TEST_CASE("all_finite: rejects NaN and both infinities anywhere, accepts extremes") {
  std::vector<float> v(37, 1.0f);
  v[0] = std::numeric_limits<float>::max();
  v[1] = -std::numeric_limits<float>::max();
  v[2] = std::numeric_limits<float>::denorm_min();
  CHECK(tape::all_finite(v));
  for (float bad : {std::nanf(""), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
    for (std::size_t at : {std::size_t{0}, std::size_t{17}, std::size_t{36}}) {
      std::vector<float> w = v;
      w[at] = bad;
      CHECK_FALSE(tape::all_finite(w));
    }
  }
  CHECK(tape::all_finite(std::vector<float>{}));
}
