#pragma once
// The traced half shared by the NL ops that normalise each row of a [rows, cols] tensor
// (NormalizedSiLU, SphereProjectNormalize): run the forward, keep the row norms the VJP needs,
// record one CustomOp. The norms live in the record's four inline scalars when there are at most
// four rows, so recording a tiny tensor allocates no extra tape buffer; otherwise in one saved
// tape buffer.
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

// Writes out and, when row_norms is not empty, the norm of each row.
using RowNormForward = void (*)(std::span<const float> x, std::size_t rows, std::size_t cols, std::span<float> out,
                                std::span<float> row_norms);

// Executes forward on x (rows and cols from Shape::rows/cols) and, under a tape, records a
// CustomOp named `name` with inputs {x}, outputs {out}, dims {rows, cols} and the VJP `vjp`.
[[nodiscard]] Tensor record_row_norm_op(const char* name, RowNormForward forward, CustomBackwardFn vjp,
                                        const Tensor& x);

// In a VJP of such an op: the row norms saved by record_row_norm_op.
[[nodiscard]] inline std::span<const float> saved_row_norms(const CustomOp& op, const Tape& tape) {
  if (op.saved.size() == 0) return {op.scalars.data(), op.dims[0]};
  return tape.data(op.saved[0]);
}

}  // namespace tape::ops
