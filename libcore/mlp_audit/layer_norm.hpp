#pragma once
// nn.LayerNorm over a layer's outputs (the last dimension), forward and backward in ATen's CPU
// formulas (layer_norm_kernel.cpp), carried at common::Tracked<float>.
#include <cstddef>
#include <vector>

#include "mlp_audit/either.hpp"

namespace mlp_audit {

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
