#include "tape/recorder.hpp"

#include <memory>

namespace tape {

NewBuffer Recorder::heap_buffer(const Shape& shape) {
  const std::size_t n = shape.numel();
  std::shared_ptr<float[]> block = std::make_shared_for_overwrite<float[]>(n == 0 ? 1 : n);
  float* p = block.get();
  return {Tensor(std::move(block), p, shape, BufId{}), std::span<float>(p, n)};
}

void Recorder::throw_empty() const { throw TapeError(op_, "input tensor is empty (default-constructed)", {}); }

void Recorder::throw_non_finite(std::initializer_list<Shape> input_shapes) const {
  throw NonFiniteError(op_, "result contains NaN or Inf", std::vector<Shape>(input_shapes));
}

void require_same_shape(const char* op, const Tensor& a, const Tensor& b) {
  if (!(a.shape() == b.shape())) throw TapeError(op, "operands differ in shape", {a.shape(), b.shape()});
}

}  // namespace tape
