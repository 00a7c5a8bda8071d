#pragma once
// Where the per-row-norm NL ops (NormalizedSiLU, SphereProjectNormalize) keep the norms their
// VJP needs: in the record's four inline scalars when there are at most four rows, so recording
// a tiny tensor allocates no extra tape buffer; otherwise in one saved tape buffer.
#include <cstddef>
#include <span>

#include "tape/recorder.hpp"

namespace tape::ops {

// Storage for `rows` norms of `op`, which is about to be recorded through `rec`.
[[nodiscard]] inline std::span<float> row_norms_storage(Recorder& rec, CustomOp& op, std::size_t rows) {
  if (rows <= op.scalars.size()) return {op.scalars.data(), rows};
  NewBuffer b = rec.saved(Shape{rows});
  op.saved = {b.tensor.id()};
  return b.data;  // the tape's arena keeps the storage alive
}

// The norms written through row_norms_storage, read back in the VJP.
[[nodiscard]] inline std::span<const float> saved_row_norms(const CustomOp& op, const Tape& tape,
                                                            std::size_t rows) {
  if (op.saved.size() == 0) return {op.scalars.data(), rows};
  return tape.data(op.saved[0]);
}

}  // namespace tape::ops
