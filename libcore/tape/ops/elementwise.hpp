#pragma once
// Element-wise ops on same-shape tensors: Add, Sub, Mul, Scale, Negate (no broadcasting).
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

[[nodiscard]] Tensor add(const Tensor& a, const Tensor& b);
[[nodiscard]] Tensor sub(const Tensor& a, const Tensor& b);
[[nodiscard]] Tensor mul(const Tensor& a, const Tensor& b);
[[nodiscard]] Tensor scale(const Tensor& x, float scalar);
[[nodiscard]] Tensor negate(const Tensor& x);
// out = c * x recorded as Op: ScaleOp or L2RetentionOp (same math, different meaning on the tape).
template <typename Op>
[[nodiscard]] Tensor scaled_as(const char* name, const Tensor& x, float c);

// Forward kernels, fp32 for the ops and fp64 for finite-difference re-evaluation in tests.
template <typename T> void add_forward(std::span<const T> a, std::span<const T> b, std::span<T> out);
template <typename T> void sub_forward(std::span<const T> a, std::span<const T> b, std::span<T> out);
template <typename T> void mul_forward(std::span<const T> a, std::span<const T> b, std::span<T> out);
template <typename T> void scale_forward(std::span<const T> x, T scalar, std::span<T> out);

// VJPs (called by Tape::backward).
void backward(const AddOp& op, Tape& tape);
void backward(const SubOp& op, Tape& tape);
void backward(const MulOp& op, Tape& tape);
void backward(const ScaleOp& op, Tape& tape);
void backward(const NegateOp& op, Tape& tape);

}  // namespace tape::ops
