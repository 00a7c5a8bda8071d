#pragma once
// StraightThroughBool (learned frequency gate): out = (x > threshold) ? 1 : 0 in the forward;
// the VJP passes d_out through unchanged, as if the threshold were the identity
// (Bengio et al. 2013 straight-through estimator).
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

// Traced op; records a CustomOp ("StraightThroughBool") holding the threshold.
[[nodiscard]] Tensor straight_through_bool(const Tensor& x, float threshold);

template <typename T>
void straight_through_bool_forward(std::span<const T> x, T threshold, std::span<T> out);

// Accumulates d_x += d_out.
template <typename T>
void straight_through_bool_backward(std::span<const T> d_out, std::span<T> d_x);

}  // namespace tape::ops
