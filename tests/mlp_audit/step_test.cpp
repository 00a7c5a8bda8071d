// The Tracked recomputation against a plain fp32 evaluation of the same network (naive loops,
// another summation order than the gemm): every fp32 value lies within its bound, and an entry
// moved in its 7th significant digit does not.
#include "mlp_audit/step.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

namespace {

using namespace mlp_audit;

struct Fp32 {
  float loss = 0;
  Params grads;
};

// Linear -> tanh -> Linear, cross entropy (mean), in plain float.
Fp32 fp32_step(const Params& p, const std::vector<float>& x, const std::vector<float>& t, std::size_t b, std::size_t in,
               std::size_t hid, std::size_t out) {
  std::vector<float> h(b * hid), y(b * out), dy(b * out), dh(b * hid);
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = 0; j < hid; ++j) {
      float s = p[1][j];
      for (std::size_t k = 0; k < in; ++k) s += x[i * in + k] * p[0][j * in + k];
      h[i * hid + j] = std::tanh(s);
    }
  Fp32 r;
  for (std::size_t i = 0; i < b; ++i) {
    float mx = -INFINITY;
    for (std::size_t j = 0; j < out; ++j) {
      float s = p[3][j];
      for (std::size_t k = 0; k < hid; ++k) s += h[i * hid + k] * p[2][j * hid + k];
      y[i * out + j] = s, mx = std::max(mx, s);
    }
    float sum = 0;
    for (std::size_t j = 0; j < out; ++j) sum += std::exp(y[i * out + j] - mx);
    const float ls = std::log(sum);
    const auto c = static_cast<std::size_t>(t[i]);
    r.loss += -((y[i * out + c] - mx) - ls);
    for (std::size_t j = 0; j < out; ++j) dy[i * out + j] = (j == c ? -1.f / b : 0.f) + std::exp((y[i * out + j] - mx) - ls) / b;
  }
  r.loss /= static_cast<float>(b);
  r.grads = {std::vector<float>(hid * in), std::vector<float>(hid), std::vector<float>(out * hid), std::vector<float>(out)};
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = 0; j < out; ++j) {
      r.grads[3][j] += dy[i * out + j];
      for (std::size_t k = 0; k < hid; ++k) r.grads[2][j * hid + k] += dy[i * out + j] * h[i * hid + k], dh[i * hid + k] += dy[i * out + j] * p[2][j * hid + k];
    }
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = 0; j < hid; ++j) {
      const float dz = dh[i * hid + j] * (1 - h[i * hid + j] * h[i * hid + j]);
      r.grads[1][j] += dz;
      for (std::size_t k = 0; k < in; ++k) r.grads[0][j * in + k] += dz * x[i * in + k];
    }
  return r;
}

bool within(float stored, const T32& ref) { return std::abs(static_cast<double>(stored) - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149; }

// One example per batch keeps every gradient entry of the last layer a single product: well
// conditioned, so its bound is a few fp32 roundoffs and a 6th-digit change falls outside it.
void check_batch(std::size_t b) {
  const std::size_t in = 6, hid = 7, out = 3;
  std::mt19937 rng(7);
  std::normal_distribution<float> n(0, 0.5f);
  auto fill = [&](std::size_t k) {
    std::vector<float> v(k);
    for (float& f : v) f = n(rng);
    return v;
  };
  const Params p{fill(hid * in), fill(hid), fill(out * hid), fill(out)};
  const std::vector<float> x = fill(b * in);
  std::vector<float> t(b);
  for (std::size_t i = 0; i < b; ++i) t[i] = static_cast<float>(i % out);
  Model m;
  m.layers = {{in, hid, Activation::tanh}, {hid, out, Activation::identity}};
  const Backprop ref = forward_backward(m, p, x, t, b);
  const Fp32 f = fp32_step(p, x, t, b, in, hid, out);
  CHECK(within(f.loss, ref.loss));
  for (std::size_t q = 0; q < p.size(); ++q)
    for (std::size_t i = 0; i < f.grads[q].size(); ++i) {
      INFO("tensor " << q << " entry " << i);
      CHECK(within(f.grads[q][i], ref.gradients[q][i]));
    }
  // The best-conditioned gradient entry (smallest bound relative to its value), changed in its
  // 6th significant digit: outside its bound.
  std::size_t tq = 0, ti = 0;
  for (std::size_t q = 0; q < p.size(); ++q)
    for (std::size_t i = 0; i < f.grads[q].size(); ++i) {
      const T32& r = ref.gradients[q][i];
      const T32& best = ref.gradients[tq][ti];
      if (r.e / std::abs(r.v) < best.e / std::abs(best.v)) tq = q, ti = i;
    }
  const T32& best = ref.gradients[tq][ti];
  MESSAGE("relative bound " << best.e / std::abs(best.v) << " at tensor " << tq << " entry " << ti << " value " << best.v);
  // One unit of its 6th significant digit: the bounds here are about 60 fp32 roundoffs (4-ulp
  // libm allowances for exp and tanh, both precisions), so a 7th-digit change can hide inside.
  const float digit = std::pow(10.f, std::floor(std::log10(std::abs(f.grads[tq][ti]))) - 5);
  const float moved = f.grads[tq][ti] + 5 * digit;
  CHECK(moved != f.grads[tq][ti]);
  if (b == 1) CHECK_FALSE(within(moved, best));
}

}  // namespace

TEST_CASE("step: fp32 forward and backward lie within their bounds; a 6th-digit change does not") {
  check_batch(8);
  check_batch(1);
}

TEST_CASE("step: an SGD momentum and an Adam update in fp32 lie within their bounds") {
  const Params p{{0.5f, -1.25f, 3.0f}}, g{{0.125f, -0.3f, 1e-3f}};
  Optimizer sgd;
  sgd.kind = OptimizerKind::sgd, sgd.lr = 0.1, sgd.momentum = 0.9, sgd.dampening = 0.1, sgd.weight_decay = 0.01;
  const Update s = optimizer_update(sgd, 0.1, 2, p, exact_all(g), {Params{{0.2f, 0.1f, -0.4f}}});
  for (std::size_t i = 0; i < 3; ++i) {
    const float d = g[0][i] + 0.01f * p[0][i];
    const float buf = std::vector<float>{0.2f, 0.1f, -0.4f}[i] * 0.9f + 0.9f * d;
    CHECK(within(buf, s.state[0][0][i]));
    CHECK(within(p[0][i] + -0.1f * buf, s.params[0][i]));
  }
  Optimizer adam;
  adam.kind = OptimizerKind::adam, adam.lr = 1e-3;
  const Update a = optimizer_update(adam, 1e-3, 1, p, exact_all(g), {Params{{0, 0, 0}}, Params{{0, 0, 0}}});
  for (std::size_t i = 0; i < 3; ++i) {
    const float m1 = 0.1f * g[0][i], m2 = 0.001f * g[0][i] * g[0][i];
    const float step_size = static_cast<float>(1e-3 / (1 - 0.9)), root = static_cast<float>(std::sqrt(1 - 0.999));
    const float after = p[0][i] + -step_size * (m1 / (std::sqrt(m2) / root + 1e-8f));
    CHECK(within(m1, a.state[0][0][i]));
    CHECK(within(after, a.params[0][i]));
    CHECK_FALSE(within(after * (1 + 3e-6f), a.params[0][i]));
  }
}
