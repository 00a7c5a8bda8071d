#include "common/tracked.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

// Every operation's bound must contain what an fp32 evaluation of the same expression gives:
// each case evaluates the expression once at float and once at Tracked<float>, from the same
// fp32 inputs, and checks |float result - tracked value| <= tracked bound.

namespace {

using T32 = common::Tracked<float>;

// One expression over four inputs, written once for both scalars: sums that cancel, products,
// quotients and the library functions.
template <class S>
S expression(S a, S b, S c, S d) {
  using std::exp, std::log, std::sqrt, std::tanh, std::pow, std::abs;
  const S s = a * b - c * d + S(0.1) * (a - c);
  const S q = (s * s + S(1)) / (abs(d) + S(0.5));
  const S t = tanh(s) * exp(-abs(c)) + log(q + S(1)) - sqrt(q);
  return t * pow(abs(a) + S(1), S(0.7)) - s / (b * b + S(2));
}

bool inside(float got, const T32& want) { return std::abs(static_cast<double>(got) - want.v) <= want.e; }

}  // namespace

TEST_CASE("tracked: an fp32 evaluation stays inside the carried bound, over 20,000 random inputs") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int i = 0; i < 20000; ++i) {
    const float a = u(rng), b = u(rng), c = u(rng), d = u(rng);
    const float f = expression<float>(a, b, c, d);
    const T32 t = expression<T32>(T32(a), T32(b), T32(c), T32(d));
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    CAPTURE(d);
    REQUIRE(inside(f, t));
    // Not vacuous: a few hundred fp32 roundings of the result at most.
    CHECK(t.e <= 1e-4 * (std::abs(t.v) + 1));
  }
}

TEST_CASE("tracked: a long cancelling sum keeps the rounding error of the terms, not of the result") {
  // sum of x_i - x_i in one chain: the result is ~0, the fp32 error is that of the partial sums.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> u(1.0f, 2.0f);
  float f = 0;
  T32 t = 0;
  std::vector<float> xs(1000);
  for (float& x : xs) x = u(rng);
  for (float x : xs) f += x, t += T32(x);
  for (float x : xs) f -= x * 1.0000001f, t -= T32(x) * T32(1.0000001f);
  CHECK(inside(f, t));
  CHECK(t.e > 1e-5);  // many roundings of partial sums near 1,500: far more than |t| itself
}

TEST_CASE("tracked: constants carry their rounding to fp32; fp32 inputs carry none") {
  CHECK(T32(0.5f).e == 0);
  CHECK(T32(3).e == 0);
  CHECK(T32(0.1).e == doctest::Approx(std::abs(0.1 - static_cast<double>(0.1f))));
  CHECK(T32(0.1).e > 0);
  // Narrowing from a binary64 accumulation adds one fp32 rounding.
  const common::Tracked<double> wide = common::Tracked<double>(1.0) / common::Tracked<double>(3.0);
  const T32 narrow(wide);
  CHECK(narrow.e > wide.e);
  CHECK(inside(static_cast<float>(1.0 / 3.0), narrow));
}

TEST_CASE("tracked: a comparison inside the operands' bounds is counted; one outside is not") {
  const std::uint64_t before = common::ambiguous_comparisons();
  const T32 x = T32::exact(1.0, 0.25);
  CHECK(x > T32(0.5));  // 0.75 > 0.5 whatever fp32 did
  CHECK(common::ambiguous_comparisons() == before);
  CHECK(x < T32(1.1));  // fp32 may have 1.2
  CHECK(common::ambiguous_comparisons() == before + 1);
  CHECK(T32(2) == T32(2));  // exact values: certain
  CHECK(common::ambiguous_comparisons() == before + 1);
}

TEST_CASE("tracked: a divisor or a log argument that its bound reaches gives an infinite bound") {
  const T32 tiny = T32::exact(1e-6, 2e-6);
  CHECK(std::isinf((T32(1) / tiny).e));
  CHECK(std::isinf(log(tiny).e));
  CHECK(std::isfinite(log(T32(2)).e));
}

TEST_CASE("tracked: erf of an fp32 expression stays inside its bound (glibc erff)") {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (int i = 0; i < 20000; ++i) {
    const float a = u(rng), b = u(rng);
    const float f = std::erf(a * b * 0.25f + b);
    const T32 t = erf(T32(a) * T32(b) * T32(0.25f) + T32(b));
    CAPTURE(a);
    CAPTURE(b);
    REQUIRE(inside(f, t));
    CHECK(t.e <= 1e-5 * (std::abs(t.v) + 1));
  }
}
