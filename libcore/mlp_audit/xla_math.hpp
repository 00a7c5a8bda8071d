#pragma once
// XLA's CPU fp32 tanh, logistic, exp and erfc as JAX's activations reach them, carried at
// common::Tracked<float>. XLA evaluates these with approximations of its own (not libm), so their
// allowance is measured, not common::Tracked's kLibmUlps (4 units of 2^-24 |r|, which XLA's tanh
// exceeds: 4.83 measured).
//
// Measured with jax 0.10.2 (jaxlib 0.10.2, AMD EPYC, AVX-512) by
//     JAX_PLATFORMS=cpu $VENV/bin/python tests/cli/bp/measure_xla_transcendentals.py
// (6e6 fp32 inputs per function, binary64 reference), as the largest error in units of 2^-24 |r|:
//     tanh 4.83, logistic 2.48, exp 4.11 (1.4 below 88), erf 5.72 (not used: JAX's GELU calls erfc),
//     erfc by argument t: t < 1 (1 - erf there) 2.59 x 2^-24 absolute, [1, 2) 6.67, [2, 4) 11.8,
//     [4, 10] 67.0 (its value underflows past 10).
// The allowances below are those times about 1.5, rounded up: the margin covers inputs the sample
// missed and other vector widths of the same polynomials. XLA also flushes subnormal results to
// zero (measured: 1.175e-38 = 2^-126 absolute where |r| < 2^-126), so each adds 2^-126.
// The ctest bp_live_xla_allowances runs that script with --check: it reads the constants below
// and fails when the installed jaxlib measures above any of them.
#include <algorithm>
#include <cmath>

#include "common/tracked.hpp"

namespace mlp_audit {

namespace xla_math_detail {
using X32 = common::Tracked<float>;
inline constexpr double kFlushToZero = 0x1p-126;
inline constexpr double kTanhUlps = 7, kLogisticUlps = 4, kExpUlps = 6;
// erfc: an absolute allowance below t = 1, then relative ones per piece of the argument.
inline constexpr double kErfcBelowOneAbs = 4 * 0x1p-24;
inline constexpr double kErfcUlpsTo2 = 10, kErfcUlpsTo4 = 18, kErfcUlpsBeyond = 100;
}  // namespace xla_math_detail

[[nodiscard]] inline common::Tracked<float> xla_tanh(const common::Tracked<float>& x) {
  using namespace xla_math_detail;
  return common::monotone_map(x, [](double t) { return std::tanh(t); }, kTanhUlps, kFlushToZero);
}

// lax.logistic: 1 / (1 + exp(-x)), increasing.
[[nodiscard]] inline common::Tracked<float> xla_logistic(const common::Tracked<float>& x) {
  using namespace xla_math_detail;
  return common::monotone_map(x, [](double t) { return 1 / (1 + std::exp(-t)); }, kLogisticUlps, kFlushToZero);
}

[[nodiscard]] inline common::Tracked<float> xla_exp(const common::Tracked<float>& x) {
  using namespace xla_math_detail;
  return common::monotone_map(x, [](double t) { return std::exp(t); }, kExpUlps, kFlushToZero);
}

// lax.erfc, decreasing. The relative allowance is the largest of the pieces the operand's interval
// reaches (the top end's), taken of the largest value on it (the bottom end's).
[[nodiscard]] inline common::Tracked<float> xla_erfc(const common::Tracked<float>& x) {
  using namespace xla_math_detail;
  const double lo = x.v - x.e, hi = x.v + x.e;
  const double r = std::erfc(x.v);
  const double spread = std::max(std::erfc(lo) - r, r - std::erfc(hi));
  const double ulps = hi < 1 ? 0 : hi < 2 ? kErfcUlpsTo2 : hi < 4 ? kErfcUlpsTo4 : kErfcUlpsBeyond;
  const double below_one = lo < 1 ? kErfcBelowOneAbs : 0;
  return X32::exact(r, spread + ulps * X32::u * std::erfc(lo) + below_one + kFlushToZero);
}

}  // namespace mlp_audit
