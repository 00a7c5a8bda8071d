#include "tape/ops/retention.hpp"

#include "tape/ops/elementwise.hpp"

namespace tape::ops {

Tensor l2_retention(const Tensor& x, float lambda) { return scaled_as<L2RetentionOp>("L2Retention", x, lambda); }

// d_x = lambda * d_out
void backward(const L2RetentionOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += op.lambda * g[i];
}

}  // namespace tape::ops
