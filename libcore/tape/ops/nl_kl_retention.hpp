#pragma once
// KLRetention (MEMORA): per row r, out[r] = softmax(alpha * log(max(prior[r], 1e-8)) - theta * grad[r]).
// alpha and theta are constants of the op (the gates that produce them live inside the opaque
// MEMORA block). Where prior <= 1e-8 the clamp is flat, so d_prior is exactly 0 there (§9, O-8).
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

inline constexpr double kKlRetentionFloor = 1e-8;

struct KlRetentionParams {
  double alpha = 1.0;
  double theta = 0.0;
  std::size_t rows = 0;
  std::size_t cols = 0;
};

// Traced op: prior and grad share one shape, read as rows (Shape::rows/cols). Records a CustomOp
// ("KLRetention") with inputs {prior, grad}; throws TapeError on a shape mismatch.
[[nodiscard]] Tensor kl_retention(const Tensor& prior, const Tensor& grad, float alpha, float theta);

// Row softmax with the max subtracted; a row whose exponentials sum to 0 stays 0.
template <typename T>
void kl_retention_forward(std::span<const T> prior, std::span<const T> grad, const KlRetentionParams& p,
                          std::span<T> out);

// Accumulates d_prior and d_grad from the saved prior and output.
template <typename T>
void kl_retention_backward(std::span<const T> prior, std::span<const T> out, std::span<const T> d_out,
                           const KlRetentionParams& p, std::span<T> d_prior, std::span<T> d_grad);

}  // namespace tape::ops
