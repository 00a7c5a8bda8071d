#include "tape/ops/nl_kl_retention.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "tape/recorder.hpp"

namespace tape::ops {

template <typename T>
void kl_retention_forward(std::span<const T> prior, std::span<const T> grad, const KlRetentionParams& p,
                          std::span<T> out) {
  [[maybe_unused]] const std::size_t n = p.rows * p.cols;
  assert(prior.size() == n && grad.size() == n && out.size() == n);
  const T alpha = static_cast<T>(p.alpha);
  const T theta = static_cast<T>(p.theta);
  const T floor = static_cast<T>(kKlRetentionFloor);
  for (std::size_t r = 0; r < p.rows; ++r) {
    const std::size_t base = r * p.cols;
    T* o = out.data() + base;
    T mx = -std::numeric_limits<T>::infinity();
    for (std::size_t j = 0; j < p.cols; ++j) {
      o[j] = alpha * std::log(std::max(prior[base + j], floor)) - theta * grad[base + j];
      mx = std::max(mx, o[j]);
    }
    T sum = 0;
    for (std::size_t j = 0; j < p.cols; ++j) {
      o[j] = std::exp(o[j] - mx);
      sum += o[j];
    }
    if (sum > T(0)) {
      const T inv = T(1) / sum;
      for (std::size_t j = 0; j < p.cols; ++j) o[j] *= inv;
    }
  }
}

template <typename T>
void kl_retention_backward(std::span<const T> prior, std::span<const T> out, std::span<const T> d_out,
                           const KlRetentionParams& p, std::span<T> d_prior, std::span<T> d_grad) {
  [[maybe_unused]] const std::size_t n = p.rows * p.cols;
  assert(prior.size() == n && out.size() == n && d_out.size() == n && d_prior.size() == n && d_grad.size() == n);
  const T alpha = static_cast<T>(p.alpha);
  const T theta = static_cast<T>(p.theta);
  const T floor = static_cast<T>(kKlRetentionFloor);
  for (std::size_t r = 0; r < p.rows; ++r) {
    const std::size_t base = r * p.cols;
    T dot = 0;
    for (std::size_t j = 0; j < p.cols; ++j) dot += out[base + j] * d_out[base + j];
    for (std::size_t j = 0; j < p.cols; ++j) {
      const std::size_t i = base + j;
      const T dz = out[i] * (d_out[i] - dot);
      if (prior[i] > floor) d_prior[i] += dz * alpha / prior[i];
      d_grad[i] -= dz * theta;
    }
  }
}

template void kl_retention_forward<float>(std::span<const float>, std::span<const float>, const KlRetentionParams&,
                                          std::span<float>);
template void kl_retention_forward<double>(std::span<const double>, std::span<const double>,
                                           const KlRetentionParams&, std::span<double>);
template void kl_retention_backward<float>(std::span<const float>, std::span<const float>, std::span<const float>,
                                           const KlRetentionParams&, std::span<float>, std::span<float>);
template void kl_retention_backward<double>(std::span<const double>, std::span<const double>,
                                            std::span<const double>, const KlRetentionParams&, std::span<double>,
                                            std::span<double>);

namespace {

void kl_retention_vjp(const CustomOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.outputs[0]);
  if (g.empty()) return;
  const std::span<float> d_prior = tape.grad_accumulator(op.inputs[0]);
  const std::span<float> d_grad = tape.grad_accumulator(op.inputs[1]);
  if (d_prior.empty() && d_grad.empty()) return;
  const KlRetentionParams p{op.scalars[0], op.scalars[1], op.dims[0], op.dims[1]};
  // A constant input has no accumulator; its gradient goes to scratch and is dropped.
  std::vector<float> scratch(d_prior.empty() || d_grad.empty() ? g.size() : 0);
  kl_retention_backward<float>(tape.data(op.inputs[0]), tape.data(op.outputs[0]), g, p,
                               d_prior.empty() ? std::span<float>(scratch) : d_prior,
                               d_grad.empty() ? std::span<float>(scratch) : d_grad);
}

}  // namespace

Tensor kl_retention(const Tensor& prior, const Tensor& grad, float alpha, float theta) {
  require_same_shape("KLRetention", prior, grad);
  const KlRetentionParams p{alpha, theta, prior.shape().rows(), prior.shape().cols()};
  Recorder rec("KLRetention");
  const BufId ip = rec.input(prior);
  const BufId ig = rec.input(grad);
  NewBuffer out = rec.output(prior.shape());
  kl_retention_forward<float>(prior.data(), grad.data(), p, out.data);
  rec.check_finite(out.data, {prior.shape(), grad.shape()});
  if (rec.recording()) {
    rec.record(CustomOp{.name = "KLRetention",
                        .backward = kl_retention_vjp,
                        .inputs = {ip, ig},
                        .outputs = {out.tensor.id()},
                        .saved = {},
                        .scalars = {alpha, theta, 0.0f, 0.0f},
                        .dims = {p.rows, p.cols, 0, 0}});  // ids minted by this Recorder: no re-validation
  }
  return std::move(out.tensor);
}

}  // namespace tape::ops
