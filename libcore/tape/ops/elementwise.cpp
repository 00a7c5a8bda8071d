#include "tape/ops/elementwise.hpp"

#include <cstddef>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

template <typename T>
void add_forward(std::span<const T> a, std::span<const T> b, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] + b[i];
}
template <typename T>
void sub_forward(std::span<const T> a, std::span<const T> b, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] - b[i];
}
template <typename T>
void mul_forward(std::span<const T> a, std::span<const T> b, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] * b[i];
}
template <typename T>
void scale_forward(std::span<const T> x, T scalar, std::span<T> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = scalar * x[i];
}

template void add_forward<float>(std::span<const float>, std::span<const float>, std::span<float>);
template void add_forward<double>(std::span<const double>, std::span<const double>, std::span<double>);
template void add_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>);
template void add_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>);
template void sub_forward<float>(std::span<const float>, std::span<const float>, std::span<float>);
template void sub_forward<double>(std::span<const double>, std::span<const double>, std::span<double>);
template void sub_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>);
template void sub_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>);
template void mul_forward<float>(std::span<const float>, std::span<const float>, std::span<float>);
template void mul_forward<double>(std::span<const double>, std::span<const double>, std::span<double>);
template void mul_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>);
template void mul_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>);
template void scale_forward<float>(std::span<const float>, float, std::span<float>);
template void scale_forward<double>(std::span<const double>, double, std::span<double>);
template void scale_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, common::Tracked<float>, std::span<common::Tracked<float>>);
template void scale_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, common::Tracked<double>, std::span<common::Tracked<double>>);

namespace {

using Kernel = void (*)(std::span<const float>, std::span<const float>, std::span<float>);

template <typename Op>
Tensor binary(const char* name, const Tensor& a, const Tensor& b, Kernel kernel) {
  require_same_shape(name, a, b);
  Recorder rec(name);
  const BufId ia = rec.input(a);
  const BufId ib = rec.input(b);
  NewBuffer out = rec.output(a.shape());
  kernel(a.data(), b.data(), out.data);
  rec.check_finite(out.data, {a.shape(), b.shape()});
  rec.record(Op{ia, ib, out.tensor.id()});
  return std::move(out.tensor);
}

// acc += c * g
void add_scaled(std::span<float> acc, float c, std::span<const float> g) {
  for (std::size_t i = 0; i < acc.size(); ++i) acc[i] += c * g[i];
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) { return binary<AddOp>("Add", a, b, add_forward<float>); }
Tensor sub(const Tensor& a, const Tensor& b) { return binary<SubOp>("Sub", a, b, sub_forward<float>); }
Tensor mul(const Tensor& a, const Tensor& b) { return binary<MulOp>("Mul", a, b, mul_forward<float>); }

template <typename Op>
Tensor scaled_as(const char* name, const Tensor& x, float c) {
  Recorder rec(name);
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  scale_forward<float>(x.data(), c, out.data);
  rec.check_finite(out.data, {x.shape()});
  rec.record(Op{ix, c, out.tensor.id()});
  return std::move(out.tensor);
}
template Tensor scaled_as<ScaleOp>(const char*, const Tensor&, float);
template Tensor scaled_as<L2RetentionOp>(const char*, const Tensor&, float);

Tensor scale(const Tensor& x, float scalar) { return scaled_as<ScaleOp>("Scale", x, scalar); }

Tensor negate(const Tensor& x) {
  Recorder rec("Negate");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] = -x[i];
  rec.check_finite(out.data, {x.shape()});
  rec.record(NegateOp{ix, out.tensor.id()});
  return std::move(out.tensor);
}

// d_A = d_out, d_B = d_out
void backward(const AddOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  if (auto da = tape.grad_accumulator(op.a); !da.empty()) add_scaled(da, 1.0f, g);
  if (auto db = tape.grad_accumulator(op.b); !db.empty()) add_scaled(db, 1.0f, g);
}

// d_A = d_out, d_B = -d_out
void backward(const SubOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  if (auto da = tape.grad_accumulator(op.a); !da.empty()) add_scaled(da, 1.0f, g);
  if (auto db = tape.grad_accumulator(op.b); !db.empty()) add_scaled(db, -1.0f, g);
}

// d_A = d_out * B, d_B = d_out * A
void backward(const MulOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  if (auto da = tape.grad_accumulator(op.a); !da.empty()) {
    const std::span<const float> b = tape.data(op.b);
    for (std::size_t i = 0; i < da.size(); ++i) da[i] += g[i] * b[i];
  }
  if (auto db = tape.grad_accumulator(op.b); !db.empty()) {
    const std::span<const float> a = tape.data(op.a);
    for (std::size_t i = 0; i < db.size(); ++i) db[i] += g[i] * a[i];
  }
}

// d_x = scalar * d_out (the scalar is a constant)
void backward(const ScaleOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (auto dx = tape.grad_accumulator(op.input); !g.empty() && !dx.empty()) add_scaled(dx, op.scalar, g);
}

// d_x = -d_out
void backward(const NegateOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (auto dx = tape.grad_accumulator(op.input); !g.empty() && !dx.empty()) add_scaled(dx, -1.0f, g);
}

}  // namespace tape::ops
