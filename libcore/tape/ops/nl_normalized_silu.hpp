#pragma once
// NormalizedSiLU (Trellis): per row u of length m, c = silu(u), n = ||c||,
// out = sqrt(m) * c / n when n > 1e-8, else exactly 0 (and zero gradient).
// Forward and VJP side by side; templates so tests can re-evaluate in fp64.
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

inline constexpr double kNormalizedSiluEps = 1e-8;

// Traced op: rows and row length m come from x's shape (Shape::rows/cols). Records a CustomOp
// ("NormalizedSiLU") that saves the row norms; the VJP reuses x, the output and the norms.
[[nodiscard]] Tensor normalized_silu(const Tensor& x);

// Writes out (rows*cols) and row_norms (rows) = ||silu(row)||, which the VJP reuses
// (row_norms may be empty when no VJP will run).
template <typename T>
void normalized_silu_forward(std::span<const T> x, std::size_t rows, std::size_t cols, std::span<T> out,
                             std::span<T> row_norms);

// Accumulates into d_x: d_x += J^T d_out, from the saved input, output and row norms.
template <typename T>
void normalized_silu_backward(std::span<const T> x, std::span<const T> out, std::span<const T> row_norms,
                              std::span<const T> d_out, std::size_t rows, std::size_t cols, std::span<T> d_x);

}  // namespace tape::ops
