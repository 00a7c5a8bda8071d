#include "tape/ops/nl_row_norm_op.hpp"

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
  CustomOp op{.name = name,
              .backward = vjp,
              .inputs = {ix},
              .outputs = {out.tensor.id()},
              .saved = {},
              .scalars = {},
              .dims = {rows, cols, 0, 0}};
  std::span<float> norms(op.scalars.data(), rows);
  if (rows > op.scalars.size()) {
    NewBuffer b = rec.saved(Shape{rows});
    op.saved = {b.tensor.id()};
    norms = b.data;  // the tape's arena keeps the storage alive
  }
  forward(x.data(), rows, cols, out.data, norms);
  rec.check_finite(out.data, {x.shape()});
  rec.record(std::move(op));  // ids minted by this Recorder: no re-validation (Tape::record_custom)
  return std::move(out.tensor);
}

}  // namespace tape::ops
