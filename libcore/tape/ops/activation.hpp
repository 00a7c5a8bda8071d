#pragma once
// Activations with the ±15 clamps of nltrain-math §0: Sigmoid, Softplus, SiLU.
#include <cmath>
#include <span>

#include "common/tracked.hpp"

#include "tape/tape.hpp"

namespace tape::ops {

namespace tracked_detail_ulps {
inline constexpr double kSigmoid = 4 + 3;   // libm exp, then negate, add, divide
inline constexpr double kSoftplus = 4 + 5;  // libm exp and log1p
}  // namespace tracked_detail_ulps

[[nodiscard]] Tensor sigmoid(const Tensor& x);
[[nodiscard]] Tensor softplus(const Tensor& x);
[[nodiscard]] Tensor silu(const Tensor& x);

// Scalar definitions, shared with every op that differentiates through them.
// σ(x) is exactly 1 at x >= 15 and 0 at x <= -15, so its derivative σ(1-σ) is exactly 0 there.
template <typename T>
[[nodiscard]] inline T clamped_sigmoid(T x) {
  // The audit scalar: the clamped sigmoid is non-decreasing everywhere (its clamps jump up), so
  // the interval's ends bound it; exp, one add and one divide round in each precision.
  if constexpr (common::is_tracked<T>) {
    return common::monotone_map(x, [](double t) { return clamped_sigmoid(t); }, tracked_detail_ulps::kSigmoid);
  }
  if (x >= T(15)) return T(1);
  if (x <= T(-15)) return T(0);
  using std::exp;  // and exp(Tracked) by argument-dependent lookup (bp's fp64 audit, common/tracked.hpp)
  return T(1) / (T(1) + exp(-x));
}
// softplus(x) = x at x >= 15, 0 at x <= -15, else ln(1 + e^x); its derivative is clamped_sigmoid.
template <typename T>
[[nodiscard]] inline T clamped_softplus(T x) {
  // The audit scalar: non-decreasing except at the clamps, which move it by at most
  // log1p(e^-15) < 3.1e-7.
  if constexpr (common::is_tracked<T>) {
    const bool clamp_inside = std::abs(std::abs(x.v) - 15) <= x.e;
    return common::monotone_map(x, [](double t) { return clamped_softplus(t); }, tracked_detail_ulps::kSoftplus,
                                clamp_inside ? 3.1e-7 : 0.0);
  }
  if (x >= T(15)) return x;
  if (x <= T(-15)) return T(0);
  using std::exp, std::log1p;
  return log1p(exp(x));
}
template <typename T>
[[nodiscard]] inline T silu_value(T x) {
  return x * clamped_sigmoid(x);
}
// silu'(x) = σ + xσ(1-σ)
template <typename T>
[[nodiscard]] inline T silu_derivative(T x) {
  const T s = clamped_sigmoid(x);
  return s + x * s * (T(1) - s);
}

template <typename T> void sigmoid_forward(std::span<const T> x, std::span<T> out);
template <typename T> void softplus_forward(std::span<const T> x, std::span<T> out);
template <typename T> void silu_forward(std::span<const T> x, std::span<T> out);

void backward(const SigmoidOp& op, Tape& tape);
void backward(const SoftplusOp& op, Tape& tape);
void backward(const SiluOp& op, Tape& tape);

}  // namespace tape::ops
