#pragma once
// Shape of a tape tensor: rank 0..4, row-major, stored inline so op records stay heap-free.
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>

namespace tape {

class Shape {
 public:
  static constexpr std::size_t kMaxRank = 4;

  constexpr Shape() = default;  // rank 0: a scalar (one element)
  // Throws TapeError when more than kMaxRank dimensions are given.
  Shape(std::initializer_list<std::size_t> dims);

  [[nodiscard]] constexpr std::size_t rank() const { return rank_; }
  [[nodiscard]] constexpr std::size_t dim(std::size_t i) const { return dims_[i]; }
  [[nodiscard]] constexpr std::size_t numel() const { return numel_; }
  // Rows and columns when the tensor is read as a matrix: rank 0 is 1x1, rank 1 is 1xN,
  // rank >= 2 folds the leading dimensions into rows.
  // Inline: every row-wise op asks on its recording path.
  [[nodiscard]] constexpr std::size_t rows() const {
    std::size_t r = 1;
    for (std::size_t i = 0; i + 1 < rank_; ++i) r *= dims_[i];
    return r;
  }
  [[nodiscard]] constexpr std::size_t cols() const { return rank_ == 0 ? 1 : dims_[rank_ - 1]; }

  friend bool operator==(const Shape& a, const Shape& b) {
    if (a.rank_ != b.rank_) return false;
    for (std::size_t i = 0; i < a.rank_; ++i)
      if (a.dims_[i] != b.dims_[i]) return false;
    return true;
  }

  // "[2,3]"; "[]" for a scalar.
  [[nodiscard]] std::string to_string() const;

 private:
  std::array<std::size_t, kMaxRank> dims_{};
  std::size_t rank_ = 0;
  std::size_t numel_ = 1;  // cached: every op and buffer entry asks for it
};

}  // namespace tape
