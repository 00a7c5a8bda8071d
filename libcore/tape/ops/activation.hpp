#pragma once
// Activations with the ±15 clamps of nltrain-math §0: Sigmoid, Softplus, SiLU.
#include <cmath>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

[[nodiscard]] Tensor sigmoid(const Tensor& x);
[[nodiscard]] Tensor softplus(const Tensor& x);
[[nodiscard]] Tensor silu(const Tensor& x);

// Scalar definitions, shared with every op that differentiates through them.
// σ(x) is exactly 1 at x >= 15 and 0 at x <= -15, so its derivative σ(1-σ) is exactly 0 there.
template <typename T>
[[nodiscard]] inline T clamped_sigmoid(T x) {
  if (x >= T(15)) return T(1);
  if (x <= T(-15)) return T(0);
  return T(1) / (T(1) + std::exp(-x));
}
// softplus(x) = x at x >= 15, 0 at x <= -15, else ln(1 + e^x); its derivative is clamped_sigmoid.
template <typename T>
[[nodiscard]] inline T clamped_softplus(T x) {
  if (x >= T(15)) return x;
  if (x <= T(-15)) return T(0);
  return std::log1p(std::exp(x));
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
