#include "tape/ops/nl_row_norm_op.hpp"

#include <array>
#include <utility>

#include "tape/recorder.hpp"

namespace tape::ops {

Tensor record_row_norm_op(const char* name, RowNormForward forward, CustomBackwardFn vjp, const Tensor& x) {
  const std::size_t rows = x.shape().rows(), cols = x.shape().cols();
  Recorder rec(name);
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  if (!rec.recording()) {
    forward(x.data(), rows, cols, out.data, {});
    rec.check_finite(out.data, {x.shape()});
    return std::move(out.tensor);
  }
  // The norms go into the record's inline scalars (rows <= 4) or a saved tape buffer. The record
  // is built in the tape's storage only after the checks pass: no zeroed copy on the stack.
  std::array<float, 4> scalars{};
  SmallBufIds saved;
  std::span<float> norms(scalars.data(), rows <= scalars.size() ? rows : 0);  // stays a valid range
  if (rows > scalars.size()) {
    NewBuffer b = rec.saved(Shape{rows});
    saved = {b.tensor.id()};
    norms = b.data;  // the tape's arena keeps the storage alive
  }
  forward(x.data(), rows, cols, out.data, norms);
  rec.check_finite(out.data, {x.shape()});
  // ids minted by this Recorder: no re-validation (Tape::record_custom)
  rec.emplace<CustomOp>(name, vjp, SmallBufIds{ix}, SmallBufIds{out.tensor.id()}, saved, scalars,
                        std::array<std::size_t, 4>{rows, cols, 0, 0});
  return std::move(out.tensor);
}

}  // namespace tape::ops
