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

// The zero-error shortcut skips the error products of an operand whose errors are all exactly
// zero. One nonzero error, in the last entry each scan reads, must still reach every output it
// feeds: ea |b| for an error of a, |a| eb for one of b, in each transpose.
TEST_CASE("tracked_gemm: one nonzero operand error among exact entries still widens the bound (zero-error shortcut)") {
  using Tracked32 = common::Tracked<float>;
  const std::size_t m = 3, n = 4, k = 5;
  constexpr double kErr = 1e-3;
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      for (const bool error_in_a : {false, true}) {
        std::vector<Tracked32> a(m * k), b(k * n);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = Tracked32(static_cast<float>(i % 7) - 3.0f);
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = Tracked32(static_cast<float>(i % 5) + 1.0f);
        std::vector<Tracked32>& x = error_in_a ? a : b;
        x.back() = Tracked32::exact(x.back().v, kErr);
        std::vector<Tracked32> c(m * n), plain(m * n);
        tape::tracked_gemm(ta, tb, m, n, k, a.data(), b.data(), false, c.data());
        std::vector<Tracked32> a0 = a, b0 = b;  // the same values, all exact
        a0.back().e = 0, b0.back().e = 0;
        tape::tracked_gemm(ta, tb, m, n, k, a0.data(), b0.data(), false, plain.data());
        // Entry (i, p) of op(a) and (p, j) of op(b): the last stored entry of a is op(a)'s
        // (m-1, k-1) either way, of b op(b)'s (k-1, n-1).
        for (std::size_t i = 0; i < m; ++i) {
          for (std::size_t j = 0; j < n; ++j) {
            const bool fed = error_in_a ? i == m - 1 : j == n - 1;
            const double other = error_in_a ? std::abs((tb ? b[j * k + (k - 1)] : b[(k - 1) * n + j]).v)
                                            : std::abs((ta ? a[(k - 1) * m + i] : a[i * k + (k - 1)]).v);
            CAPTURE(ta);
            CAPTURE(tb);
            CAPTURE(error_in_a);
            CAPTURE(i);
            CAPTURE(j);
            CHECK(c[i * n + j].v == plain[i * n + j].v);
            if (fed) CHECK(c[i * n + j].e >= plain[i * n + j].e + kErr * other);
            else CHECK(c[i * n + j].e == plain[i * n + j].e);
          }
        }
      }
    }
  }
}
