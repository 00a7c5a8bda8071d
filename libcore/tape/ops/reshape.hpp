#pragma once
// Concat and Slice: pure data movement; gradients are routed back slice by slice.
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

// Joins rank-1 tensors (axis 0) or rank-2 tensors along axis 0 (rows) or 1 (columns); every
// other dimension must agree.
[[nodiscard]] Tensor concat(std::span<const Tensor> inputs, std::size_t axis);
// The flat range [offset, offset + out_shape.numel()) of x, given the shape out_shape.
[[nodiscard]] Tensor slice(const Tensor& x, std::size_t offset, Shape out_shape);
// The flat range [offset, offset + len) of x as a rank-1 tensor.
[[nodiscard]] Tensor slice(const Tensor& x, std::size_t offset, std::size_t len);

void backward(const ConcatOp& op, Tape& tape);
void backward(const SliceOp& op, Tape& tape);

}  // namespace tape::ops
