#pragma once
// Reductions to a scalar: FrobeniusDot <A,B> and L2Norm ||x||_2.
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

inline constexpr float kL2NormEps = 1e-8f;  // denominator floor of the L2Norm VJP (nltrain-math §9)

[[nodiscard]] Tensor frobenius_dot(const Tensor& a, const Tensor& b);  // same shapes -> scalar
[[nodiscard]] Tensor l2_norm(const Tensor& x);                         // any shape -> scalar

template <typename T> [[nodiscard]] T frobenius_dot_forward(std::span<const T> a, std::span<const T> b);
template <typename T> [[nodiscard]] T l2_norm_forward(std::span<const T> x);

void backward(const FrobeniusDotOp& op, Tape& tape);
void backward(const L2NormOp& op, Tape& tape);

}  // namespace tape::ops
