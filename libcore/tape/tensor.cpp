#include "tape/tensor.hpp"

#include <algorithm>

#include "tape/finite.hpp"
#include "tape/tape_error.hpp"

namespace tape {

Tensor Tensor::from(std::span<const float> data, Shape shape) {
  if (data.size() != shape.numel()) {
    throw TapeError("Tensor", "data holds " + std::to_string(data.size()) + " values, shape needs " +
                                  std::to_string(shape.numel()),
                    {shape});
  }
  if (!all_finite(data)) throw NonFiniteError("Tensor", "data contains NaN or Inf", {shape});
  std::shared_ptr<float[]> block = std::make_shared_for_overwrite<float[]>(data.empty() ? 1 : data.size());
  std::copy(data.begin(), data.end(), block.get());
  const float* p = block.get();
  return Tensor(std::move(block), p, shape, BufId{});
}

Tensor Tensor::scalar(float value) { return from(std::span<const float>(&value, 1), Shape{}); }

float Tensor::item() const {
  if (size_ != 1 || data_ == nullptr) throw TapeError("Tensor::item", "tensor does not hold exactly one value", {shape_});
  return data_[0];
}

}  // namespace tape
