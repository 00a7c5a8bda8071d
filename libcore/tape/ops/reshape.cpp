#include "tape/ops/reshape.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "tape/recorder.hpp"

namespace tape::ops {
namespace {

std::vector<Shape> shapes_of(std::span<const Tensor> ts) {
  std::vector<Shape> s;
  s.reserve(ts.size());
  for (const Tensor& t : ts) s.push_back(t.shape());
  return s;
}

// The output shape, or a TapeError naming every input shape.
Shape concat_shape(std::span<const Tensor> inputs, std::size_t axis) {
  if (inputs.empty()) throw TapeError("Concat", "no inputs", {});
  const Shape& first = inputs[0].shape();
  const std::size_t rank = first.rank();
  if (rank != 1 && rank != 2) throw TapeError("Concat", "inputs must have rank 1 or 2", shapes_of(inputs));
  if (axis >= rank) throw TapeError("Concat", "axis " + std::to_string(axis) + " out of range", shapes_of(inputs));
  std::size_t total = 0;
  for (const Tensor& t : inputs) {
    const Shape& s = t.shape();
    if (s.rank() != rank || (rank == 2 && s.dim(1 - axis) != first.dim(1 - axis))) {
      throw TapeError("Concat", "inputs disagree off the concat axis", shapes_of(inputs));
    }
    total += s.dim(axis);
  }
  if (rank == 1) return Shape{total};
  return axis == 0 ? Shape{total, first.dim(1)} : Shape{first.dim(0), total};
}

}  // namespace

Tensor concat(std::span<const Tensor> inputs, std::size_t axis) {
  const Shape out_shape = concat_shape(inputs, axis);
  Recorder rec("Concat");
  std::vector<BufId> ids;
  if (rec.recording()) ids.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    const BufId id = rec.input(t);
    if (rec.recording()) ids.push_back(id);
  }
  NewBuffer out = rec.output(out_shape);
  if (axis == 0) {  // blocks of whole rows follow one another
    float* o = out.data.data();
    for (const Tensor& t : inputs) o = std::copy(t.begin(), t.end(), o);
  } else {  // each output row is the inputs' rows side by side
    const std::size_t rows = out_shape.dim(0), cols = out_shape.dim(1);
    std::size_t col0 = 0;
    for (const Tensor& t : inputs) {
      const std::size_t c = t.shape().dim(1);
      for (std::size_t r = 0; r < rows; ++r) std::copy_n(t.begin() + r * c, c, out.data.data() + r * cols + col0);
      col0 += c;
    }
  }
  rec.record(ConcatOp{std::move(ids), out.tensor.id(), axis});
  return std::move(out.tensor);
}

Tensor slice(const Tensor& x, std::size_t offset, Shape out_shape) {
  const std::size_t len = out_shape.numel();
  if (offset > x.numel() || len > x.numel() - offset) {
    throw TapeError("Slice",
                    "range [" + std::to_string(offset) + ", " + std::to_string(offset) + "+" + std::to_string(len) +
                        ") exceeds " + std::to_string(x.numel()) + " elements",
                    {x.shape(), out_shape});
  }
  Recorder rec("Slice");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(out_shape);
  std::copy_n(x.begin() + offset, len, out.data.data());
  rec.record(SliceOp{ix, out.tensor.id(), offset, len});
  return std::move(out.tensor);
}

Tensor slice(const Tensor& x, std::size_t offset, std::size_t len) { return slice(x, offset, Shape{len}); }

// Each input receives its own block of d_out.
void backward(const ConcatOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  const Shape& out_shape = tape.shape(op.out);
  std::size_t pos = 0;  // axis 0: flat offset; axis 1: first column
  for (BufId id : op.inputs) {
    const Shape& s = tape.shape(id);
    std::span<float> dx = tape.grad_accumulator(id);
    if (op.axis == 0) {
      for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += g[pos + i];
      pos += s.numel();
    } else {
      const std::size_t rows = s.dim(0), c = s.dim(1), cols = out_shape.dim(1);
      for (std::size_t r = 0; r < rows && !dx.empty(); ++r)
        for (std::size_t j = 0; j < c; ++j) dx[r * c + j] += g[r * cols + pos + j];
      pos += c;
    }
  }
}

// d_x[offset + i] += d_out[i]; zero elsewhere
void backward(const SliceOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  for (std::size_t i = 0; i < op.len; ++i) dx[op.offset + i] += g[i];
}

}  // namespace tape::ops
