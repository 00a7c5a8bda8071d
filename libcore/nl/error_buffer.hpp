#pragma once
// ErrorBuffer: the parameter gradients a frozen level earns while it cannot update (in practice
// only W_Q^l's, through its read), summed until the level is next active, then added into that
// step's gradient before clipping and AdamW (nltrain-math §5, O-9: sum, not mean).
#include <cstddef>

#include "nl/level_params.hpp"

namespace nl {

template <typename T>
class ErrorBuffer {
 public:
  ErrorBuffer(std::size_t d, bool omega) : sum_(LevelParams<T>::zeros(d, omega)) {}

  void accumulate(const LevelParams<T>& g);
  // g += the buffered sum; the buffer is then empty.
  void apply_to(LevelParams<T>& g);

  [[nodiscard]] const LevelParams<T>& sum() const { return sum_; }
  [[nodiscard]] LevelParams<T> take_sum() && { return std::move(sum_); }
  [[nodiscard]] std::size_t count() const { return count_; }
  // A checkpoint's buffer back in place; `sum` shaped as this buffer's.
  void restore(LevelParams<T> sum, std::size_t count) { sum_ = std::move(sum), count_ = count; }

 private:
  LevelParams<T> sum_;
  std::size_t count_ = 0;
};

extern template class ErrorBuffer<float>;
extern template class ErrorBuffer<double>;

}  // namespace nl
