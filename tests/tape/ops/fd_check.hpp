#pragma once
// The finite-difference oracle of the op tests (standard ops through op_check.hpp, NL ops directly):
// central differences of the scalar L(x) = <w, f(x)> evaluated entirely in fp64, so fp32 rounding
// cannot hide (or fake) a VJP error.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <random>
#include <vector>

namespace tapetest {

using Forward64 = std::function<std::vector<double>(const std::vector<double>&)>;

// The step per entry: eps itself, or eps * max(1, |x_i|) (inputs of widely varying magnitude).
enum class FdStep { absolute, relative };

// Gradient of x -> <w, f(x)> by central differences with step eps (per entry).
[[nodiscard]] inline std::vector<double> fd_gradient(const Forward64& f, const std::vector<double>& x,
                                                     const std::vector<double>& w, double eps = 1e-6,
                                                     FdStep step = FdStep::absolute) {
  std::vector<double> g(x.size());
  std::vector<double> xp = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = step == FdStep::relative ? eps * std::max(1.0, std::fabs(x[i])) : eps;
    xp[i] = x[i] + h;
    const std::vector<double> hi = f(xp);
    xp[i] = x[i] - h;
    const std::vector<double> lo = f(xp);
    xp[i] = x[i];
    double diff = 0;
    for (std::size_t j = 0; j < w.size(); ++j) diff += w[j] * (hi[j] - lo[j]);
    g[i] = diff / (2 * h);
  }
  return g;
}

struct GradientMismatch {
  double worst = 0;        // largest |a - fd| / max(|a|, |fd|, floor)
  std::size_t index = 0;   // where it occurred
  double analytic = 0;
  double numeric = 0;
};

// Relative error per entry, with `floor` as the smallest denominator (entries that are both
// tiny are compared absolutely against floor).
template <typename T>
[[nodiscard]] GradientMismatch compare_gradients(const std::vector<T>& analytic, const std::vector<double>& numeric,
                                                 double floor) {
  GradientMismatch m;
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    const double a = static_cast<double>(analytic[i]);
    const double den = std::max({std::fabs(a), std::fabs(numeric[i]), floor});
    const double err = std::fabs(a - numeric[i]) / den;
    if (i == 0 || err > m.worst) m = {err, i, a, numeric[i]};
  }
  return m;
}

[[nodiscard]] inline std::vector<double> random_vector(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

template <typename T>
[[nodiscard]] std::vector<T> cast_vector(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

}  // namespace tapetest
