#include "tape/ops/activation.hpp"

#include <cstddef>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

template <typename T>
void sigmoid_forward(std::span<const T> x, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = clamped_sigmoid(x[i]);
}
template <typename T>
void softplus_forward(std::span<const T> x, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = clamped_softplus(x[i]);
}
template <typename T>
void silu_forward(std::span<const T> x, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = silu_value(x[i]);
}

template void sigmoid_forward<float>(std::span<const float>, std::span<float>);
template void sigmoid_forward<double>(std::span<const double>, std::span<double>);
template void sigmoid_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>);
template void sigmoid_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>);
template void softplus_forward<float>(std::span<const float>, std::span<float>);
template void softplus_forward<double>(std::span<const double>, std::span<double>);
template void silu_forward<float>(std::span<const float>, std::span<float>);
template void silu_forward<double>(std::span<const double>, std::span<double>);

namespace {

template <typename Op>
Tensor unary(const char* name, const Tensor& x, void (*kernel)(std::span<const float>, std::span<float>)) {
  Recorder rec(name);
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  kernel(x.data(), out.data);
  rec.check_finite(out.data, {x.shape()});
  rec.record(Op{ix, out.tensor.id()});
  return std::move(out.tensor);
}

}  // namespace

Tensor sigmoid(const Tensor& x) { return unary<SigmoidOp>("Sigmoid", x, sigmoid_forward<float>); }
Tensor softplus(const Tensor& x) { return unary<SoftplusOp>("Softplus", x, softplus_forward<float>); }
Tensor silu(const Tensor& x) { return unary<SiluOp>("SiLU", x, silu_forward<float>); }

// d_x = d_out * out * (1 - out), from the saved output (exactly 0 where the clamp holds).
void backward(const SigmoidOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  const std::span<const float> y = tape.data(op.out);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += g[i] * y[i] * (1.0f - y[i]);
}

// d_x = d_out * σ(x), with the same clamps as the forward.
void backward(const SoftplusOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  const std::span<const float> x = tape.data(op.input);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += g[i] * clamped_sigmoid(x[i]);
}

// d_x = d_out * (σ + x σ (1 - σ))
void backward(const SiluOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  const std::span<const float> x = tape.data(op.input);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += g[i] * silu_derivative(x[i]);
}

}  // namespace tape::ops
