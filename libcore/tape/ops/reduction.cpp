#include "tape/ops/reduction.hpp"

#include <algorithm>
#include <cmath>

#include "tape/recorder.hpp"

namespace tape::ops {

// Sums accumulate in double: one rounding at the end, same order every run.
template <typename T>
T frobenius_dot_forward(std::span<const T> a, std::span<const T> b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return static_cast<T>(s);
}

template <typename T>
T l2_norm_forward(std::span<const T> x) {
  double s = 0.0;
  for (T v : x) s += static_cast<double>(v) * static_cast<double>(v);
  return static_cast<T>(std::sqrt(s));
}

template float frobenius_dot_forward<float>(std::span<const float>, std::span<const float>);
template double frobenius_dot_forward<double>(std::span<const double>, std::span<const double>);
template float l2_norm_forward<float>(std::span<const float>);
template double l2_norm_forward<double>(std::span<const double>);

Tensor frobenius_dot(const Tensor& a, const Tensor& b) {
  require_same_shape("FrobeniusDot", a, b);
  Recorder rec("FrobeniusDot");
  const BufId ia = rec.input(a);
  const BufId ib = rec.input(b);
  NewBuffer out = rec.output(Shape{});
  out.data[0] = frobenius_dot_forward<float>(a.data(), b.data());
  rec.check_finite(out.data, {a.shape(), b.shape()});
  rec.record(FrobeniusDotOp{ia, ib, out.tensor.id()});
  return std::move(out.tensor);
}

Tensor l2_norm(const Tensor& x) {
  Recorder rec("L2Norm");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(Shape{});
  out.data[0] = l2_norm_forward<float>(x.data());
  rec.check_finite(out.data, {x.shape()});
  rec.record(L2NormOp{ix, out.tensor.id()});
  return std::move(out.tensor);
}

// d_A += d_out * B ; d_B += d_out * A  (d_out is a scalar)
void backward(const FrobeniusDotOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  const float s = g[0];
  if (auto da = tape.grad_accumulator(op.a); !da.empty()) {
    const std::span<const float> b = tape.data(op.b);
    for (std::size_t i = 0; i < da.size(); ++i) da[i] += s * b[i];
  }
  if (auto db = tape.grad_accumulator(op.b); !db.empty()) {
    const std::span<const float> a = tape.data(op.a);
    for (std::size_t i = 0; i < db.size(); ++i) db[i] += s * a[i];
  }
}

// d_x += d_out * x / max(||x||, eps)
void backward(const L2NormOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  const float c = g[0] / std::max(tape.data(op.out)[0], kL2NormEps);
  const std::span<const float> x = tape.data(op.input);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += c * x[i];
}

}  // namespace tape::ops
