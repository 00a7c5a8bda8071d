#pragma once
// jax_mlp.LayerNorm (the JAX writer's stax-style layer) over a layer's outputs, forward and the
// backward JAX's autodiff derives from it, carried at common::Tracked<float>.
#include <cstddef>
#include <vector>

#include "mlp_audit/either.hpp"

namespace mlp_audit {

struct JaxNormForward {
  std::vector<T32> y;          // [rows, n]
  std::vector<T32> c, t;       // [rows, n]: x - mean, and c * rstd (the primal values the backward reads)
  std::vector<T32> v, rstd;    // [rows]: var + eps, and its rsqrt
};

// gamma, beta: [n], or empty without elementwise_affine.
[[nodiscard]] JaxNormForward layer_norm_jax(const std::vector<T32>& x, std::size_t rows, std::size_t n, double eps,
                                            const std::vector<T32>& gamma, const std::vector<T32>& beta);

struct JaxNormBackward {
  std::vector<T32> dx;             // [rows, n]
  std::vector<T32> dgamma, dbeta;  // [n], empty without elementwise_affine
};

[[nodiscard]] JaxNormBackward layer_norm_jax_backward(const std::vector<T32>& dy, const JaxNormForward& f, std::size_t rows,
                                                      std::size_t n, const std::vector<T32>& gamma);

// a / d for a constant divisor d, as XLA evaluates it: a / d, or (under jit, where its algebraic
// simplifier rewrites the division) a * fl(1 / d): one rounding more is allowed.
[[nodiscard]] T32 divide_by_constant(const T32& a, const T32& d);

}  // namespace mlp_audit
