#include "tape/finite.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

// n = 37 takes the inline loop, n = 1061 the out-of-line one (tape::detail::kWideFinite).
template <typename T>
void check_all_finite(std::size_t n) {
  using L = std::numeric_limits<T>;
  std::vector<T> v(n, T(1));
  v[0] = L::max();
  v[1] = -L::max();
  v[2] = L::denorm_min();
  CHECK(tape::all_finite(std::span<const T>(v)));
  for (T bad : {L::quiet_NaN(), L::infinity(), -L::infinity()}) {
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<T> w = v;
      w[at] = bad;
      CHECK_FALSE(tape::all_finite(std::span<const T>(w)));
    }
  }
  CHECK(tape::all_finite(std::span<const T>(std::vector<T>{})));
}

}  // namespace

TEST_CASE("all_finite: rejects NaN and both infinities anywhere, accepts extremes") {
  static_assert(tape::detail::kWideFinite <= 1061);
  for (std::size_t n : {std::size_t{37}, std::size_t{1061}}) {
    CAPTURE(n);
    check_all_finite<float>(n);
    check_all_finite<double>(n);
  }
}
