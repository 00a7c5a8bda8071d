#pragma once
// nn.LayerNorm over a layer's outputs (the last dimension), forward and backward in ATen's CPU
// formulas (layer_norm_kernel.cpp), carried at common::Tracked<float>.
#include <cstddef>
#include <vector>

#include "mlp_audit/either.hpp"

namespace mlp_audit {

// One row's sums for bounding its mean and biased variance directly (layer_norm.cpp,
// layer_norm_jax.cpp), with d_j = x_j - mean in binary64.
struct RowSums {
  double mean = 0;        // sum x / n
  double propagated = 0;  // sum of the inputs' bounds
  double largest = 0;     // max |x| + its bound
  double s = 0, centred = 0;      // sum d^2, sum d
  double first = 0, second = 0;   // sum 2 |d| e, sum e^2: the inputs' errors in the sum of squares
};
[[nodiscard]] RowSums row_moment_sums(const T32* x, std::size_t n);

struct NormForward {
  std::vector<T32> y;           // [rows, n]
  std::vector<T32> mean, rstd;  // [rows]: what ATen saves for the backward
};

// gamma, beta: [n], or empty without elementwise_affine.
[[nodiscard]] NormForward layer_norm(const std::vector<T32>& x, std::size_t rows, std::size_t n, double eps,
                                     const std::vector<T32>& gamma, const std::vector<T32>& beta);

struct NormBackward {
  std::vector<T32> dx;             // [rows, n]
  std::vector<T32> dgamma, dbeta;  // [n], empty without elementwise_affine
};

[[nodiscard]] NormBackward layer_norm_backward(const std::vector<T32>& dy, const std::vector<T32>& x, const NormForward& f,
                                               std::size_t rows, std::size_t n, const std::vector<T32>& gamma);

}  // namespace mlp_audit
