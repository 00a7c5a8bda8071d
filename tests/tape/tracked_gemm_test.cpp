#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tape/tracked_gemm.hpp"

// tracked_gemm at A = double (way (b) of an fp64 run's receipts): the bound must hold any other
// binary64 evaluation of the product, summed in any order, not only the dgemm that computed the
// value.

namespace {

using Tracked64 = common::Tracked<double>;

// A dot product summed in the order that loses the most: positive terms largest first, then the
// negative ones, each rounded in binary64.
double adversarial_dot(std::vector<double> terms) {
  std::sort(terms.begin(), terms.end(), [](double x, double y) {
    if ((x >= 0) != (y >= 0)) return x >= 0;
    return std::abs(x) > std::abs(y);
  });
  double s = 0;
  for (double t : terms) s += t;
  return s;
}

}  // namespace

TEST_CASE("tracked_gemm: at Tracked<double>, binary64 sums in other orders (reversed, largest first) lie inside the bound") {
  const std::size_t m = 9, n = 7, k = 4001;  // a long dot product of mixed signs: where order matters
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(m * k), b(k * n);
  for (double& x : a) x = u(rng);
  for (double& x : b) x = u(rng) * 1e3;
  const std::vector<Tracked64> ta(a.begin(), a.end()), tb(b.begin(), b.end());
  std::vector<Tracked64> c(m * n);
  tape::tracked_gemm(false, false, m, n, k, ta.data(), tb.data(), false, c.data());
  double worst = 0;  // the largest distance of another order from the value, in units of its bound
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> terms(k);
      for (std::size_t p = 0; p < k; ++p) terms[p] = a[i * k + p] * b[p * n + j];
      double reversed = 0;
      for (std::size_t p = k; p-- > 0;) reversed += terms[p];
      const Tracked64& got = c[i * n + j];
      for (double other : {reversed, adversarial_dot(terms)}) {
        CAPTURE(i);
        CAPTURE(j);
        REQUIRE(std::abs(other - got.v) <= got.e);
        worst = std::max(worst, std::abs(other - got.v) / got.e);
      }
      // Not vacuous: a few thousand binary64 roundoffs of the terms' magnitudes, far below the value.
      CHECK(got.e < 1e-8 * 1e3 * static_cast<double>(k));
    }
  }
  CHECK(worst > 0);  // the orders do differ from the value
}
