#include "tape/ops/retention.hpp"

#include "tape/ops/elementwise.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

Tensor l2_retention(const Tensor& x, float lambda) {
  Recorder rec("L2Retention");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  scale_forward<float>(x.data(), lambda, out.data);
  rec.check_finite(out.data, {x.shape()});
  rec.record(L2RetentionOp{ix, lambda, out.tensor.id()});
  return std::move(out.tensor);
}

// d_x = lambda * d_out
void backward(const L2RetentionOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += op.lambda * g[i];
}

}  // namespace tape::ops
