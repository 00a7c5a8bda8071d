#pragma once
// Tensor: an immutable fp32 value (shape + row-major data) that traced ops take and return.
//
// Data is shared and never written after the op that made it returns, so copying a Tensor is
// cheap and a tape can keep every intermediate without copying it (CS-42, CS-47). A Tensor made
// while a tape was recording carries that tape's BufId; otherwise id() is invalid and the tensor
// is a constant to any tape that later sees it.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "tape/buf_id.hpp"
#include "tape/shape.hpp"

namespace tape {

class Tape;

class Tensor {
 public:
  Tensor() = default;  // empty: rank 0 with no data; ops reject it

  // Copies `data`. Throws TapeError when data.size() != shape.numel() or a value is not finite.
  [[nodiscard]] static Tensor from(std::span<const float> data, Shape shape);
  [[nodiscard]] static Tensor scalar(float value);

  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] std::size_t numel() const { return size_; }
  [[nodiscard]] bool empty() const { return data_ == nullptr; }
  [[nodiscard]] std::span<const float> data() const { return {data_, size_}; }
  [[nodiscard]] const float* begin() const { return data_; }
  [[nodiscard]] const float* end() const { return data_ + size_; }
  [[nodiscard]] float operator[](std::size_t i) const { return data_[i]; }
  [[nodiscard]] float item() const;  // the single value; throws TapeError unless numel() == 1
  [[nodiscard]] std::vector<float> to_vector() const { return {begin(), end()}; }
  // The recording tape's name for this value; invalid when made without a tape.
  [[nodiscard]] BufId id() const { return id_; }

 private:
  friend class Tape;
  friend class Recorder;
  Tensor(std::shared_ptr<const float[]> owner, const float* data, Shape shape, BufId id)
      : owner_(std::move(owner)), data_(data), size_(shape.numel()), shape_(shape), id_(id) {}

  std::shared_ptr<const float[]> owner_;  // keeps the storage (heap block or arena chunk) alive
  const float* data_ = nullptr;
  std::size_t size_ = 0;
  Shape shape_;
  BufId id_;
};

// Storage for a new tensor, before it is published: the op fills `data`, then returns `tensor`.
struct NewBuffer {
  Tensor tensor;
  std::span<float> data;
};

}  // namespace tape
