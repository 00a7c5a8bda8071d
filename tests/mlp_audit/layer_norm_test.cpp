// LayerNorm's Tracked bounds against plain fp32 evaluations: Welford moments as ATen computes
// them, the forward, and the backward's dx, dgamma, dbeta in ATen's formulas.
#include "mlp_audit/layer_norm.hpp"
#include "mlp_audit/layer_norm_jax.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

namespace layer_norm_test {  // named: the unity build joins the test files

using namespace mlp_audit;

bool inside_norm_bound(float stored, const T32& ref) {
  return std::abs(static_cast<double>(stored) - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149;
}

// Inputs and upstream gradients ~ N(mean, sd), gamma near 1, beta near 0.
struct Case {
  std::vector<float> x, dy, g, b;
};
Case random_case(std::size_t rows, std::size_t n, unsigned seed, float mean, float sd) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(mean, sd);
  Case c{std::vector<float>(rows * n), std::vector<float>(rows * n), std::vector<float>(n), std::vector<float>(n)};
  for (float& v : c.x) v = d(rng);
  for (float& v : c.dy) v = d(rng);
  for (std::size_t j = 0; j < n; ++j) c.g[j] = 1 + 0.1f * d(rng), c.b[j] = 0.1f * d(rng);
  return c;
}

struct Fp32 {
  std::vector<float> y, dx, dgamma, dbeta;
};

Fp32 fp32_layer_norm(const std::vector<float>& x, const std::vector<float>& dy, std::size_t rows, std::size_t n, float eps,
                     const std::vector<float>& g, const std::vector<float>& b) {
  Fp32 r;
  r.y.resize(x.size()), r.dx.resize(x.size()), r.dgamma.assign(n, 0), r.dbeta.assign(n, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    float mean = 0, m2 = 0;  // Welford
    for (std::size_t j = 0; j < n; ++j) {
      const float v = x[i * n + j], d = v - mean;
      mean += d / static_cast<float>(j + 1);
      m2 += d * (v - mean);
    }
    const float rstd = 1.f / std::sqrt(std::max(m2 / static_cast<float>(n), 0.f) + eps), bias = -rstd * mean;
    float ds = 0, db = 0;
    for (std::size_t j = 0; j < n; ++j) {
      r.y[i * n + j] = (x[i * n + j] * rstd + bias) * g[j] + b[j];
      ds += dy[i * n + j] * g[j] * x[i * n + j], db += dy[i * n + j] * g[j];
      r.dgamma[j] += dy[i * n + j] * (rstd * x[i * n + j] + bias), r.dbeta[j] += dy[i * n + j];
    }
    const float scale = 1.f / static_cast<float>(n);
    const float bb = (db * mean - ds) * rstd * rstd * rstd * scale, c = -bb * mean - db * rstd * scale;
    for (std::size_t j = 0; j < n; ++j) r.dx[i * n + j] = rstd * dy[i * n + j] * g[j] + bb * x[i * n + j] + c;
  }
  return r;
}

}  // namespace layer_norm_test

using namespace layer_norm_test;

TEST_CASE("layer_norm: fp32 LayerNorm forward and backward lie within their bounds; a 6th-digit output change does not") {
  const std::size_t rows = 5, n = 12;
  const auto [x, dy, g, b] = random_case(rows, n, 5, 0.4f, 1.5f);
  std::vector<T32> tx(x.begin(), x.end()), tdy(dy.begin(), dy.end()), tg(g.begin(), g.end()), tb(b.begin(), b.end());
  const NormForward f = layer_norm(tx, rows, n, 1e-5, tg, tb);
  const NormBackward nb = layer_norm_backward(tdy, tx, f, rows, n, tg);
  const Fp32 r = fp32_layer_norm(x, dy, rows, n, 1e-5f, g, b);
  std::size_t moved_out = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    CAPTURE(k);
    CHECK(inside_norm_bound(r.y[k], f.y[k]));
    CHECK(inside_norm_bound(r.dx[k], nb.dx[k]));
    const float digit = std::pow(10.f, std::floor(std::log10(std::abs(r.y[k]))) - 5);
    if (!inside_norm_bound(r.y[k] + 5 * digit, f.y[k])) ++moved_out;
  }
  for (std::size_t j = 0; j < n; ++j) {
    CHECK(inside_norm_bound(r.dgamma[j], nb.dgamma[j]));
    CHECK(inside_norm_bound(r.dbeta[j], nb.dbeta[j]));
  }
  MESSAGE("outputs whose 6th-digit change leaves the bound: " << moved_out << " of " << x.size());
  CHECK(moved_out * 2 > x.size());
}

TEST_CASE("layer_norm, layer_norm_jax: without elementwise_affine there is no gamma or beta, and the output has mean 0, variance 1") {
  const std::vector<T32> x{T32(1.f), T32(2.f), T32(4.f), T32(-3.f)}, ones(4, T32(1.f));
  auto check_plain = [](const std::vector<T32>& y, const auto& nb) {
    double s = 0, sq = 0;
    for (const T32& v : y) s += v.v, sq += v.v * v.v;
    CHECK(std::abs(s) < 1e-12);
    CHECK(sq / 4 == doctest::Approx(1).epsilon(1e-5));
    CHECK(nb.dgamma.empty());
    for (const T32& v : nb.dx) CHECK(std::abs(v.v) < 1e-12);  // a constant upstream gradient is projected out
  };
  const NormForward f = layer_norm(x, 1, 4, 1e-5, {}, {});
  check_plain(f.y, layer_norm_backward(ones, x, f, 1, 4, {}));
  const JaxNormForward jf = layer_norm_jax(x, 1, 4, 1e-5, {}, {});
  check_plain(jf.y, layer_norm_jax_backward(ones, jf, 1, 4, {}));
}

namespace layer_norm_test {

// jax_mlp.LayerNorm in plain fp32 as XLA runs it (layer_norm_jax.cpp): sums, then a division by n
// (or, under jit, a multiplication by the rounded 1 / n), rsqrt as 1 / sqrt, and the backward
// jax.grad derives, equation for equation.
Fp32 fp32_jax_layer_norm(const std::vector<float>& x, const std::vector<float>& dy, std::size_t rows, std::size_t n, float eps,
                         const std::vector<float>& g, const std::vector<float>& b, bool reciprocal) {
  Fp32 r;
  r.y.resize(x.size()), r.dx.resize(x.size()), r.dgamma.assign(n, 0), r.dbeta.assign(n, 0);
  const float fn = static_cast<float>(n), inv = 1.f / fn;
  auto over_n = [&](float s) { return reciprocal ? s * inv : s / fn; };
  std::vector<float> c(n), dc(n);
  for (std::size_t i = 0; i < rows; ++i) {
    float s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[i * n + j];
    const float mean = over_n(s);
    float q = 0;
    for (std::size_t j = 0; j < n; ++j) c[j] = x[i * n + j] - mean, q += c[j] * c[j];
    const float v = over_n(q) + eps, rstd = 1.f / std::sqrt(v);
    float h = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const float t = c[j] * rstd, dt = dy[i * n + j] * g[j];
      r.y[i * n + j] = t * g[j] + b[j];
      r.dgamma[j] += dy[i * n + j] * t, r.dbeta[j] += dy[i * n + j];
      h += c[j] * dt;
    }
    const float ds = over_n(h * (-0.5f * (rstd / v)));
    float neg = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const float a = c[j] * ds;
      dc[j] = (dy[i * n + j] * g[j] * rstd + a) + a;
      neg += -dc[j];
    }
    const float shift = over_n(neg);
    for (std::size_t j = 0; j < n; ++j) r.dx[i * n + j] = dc[j] + shift;
  }
  return r;
}

}  // namespace layer_norm_test

TEST_CASE("layer_norm_jax: fp32 jax_mlp.LayerNorm and its jax.grad backward lie within their bounds; a 6th-digit change does not") {
  const std::size_t rows = 6, n = 20;
  const auto [x, dy, g, b] = random_case(rows, n, 11, -0.7f, 2.5f);
  std::vector<T32> tx(x.begin(), x.end()), tdy(dy.begin(), dy.end()), tg(g.begin(), g.end()), tb(b.begin(), b.end());
  const JaxNormForward f = layer_norm_jax(tx, rows, n, 1e-5, tg, tb);
  const JaxNormBackward nb = layer_norm_jax_backward(tdy, f, rows, n, tg);
  const NormForward torch_f = layer_norm(tx, rows, n, 1e-5, tg, tb);
  const NormBackward torch_b = layer_norm_backward(tdy, tx, torch_f, rows, n, tg);
  for (const bool reciprocal : {false, true}) {
    CAPTURE(reciprocal);
    const Fp32 r = fp32_jax_layer_norm(x, dy, rows, n, 1e-5f, g, b, reciprocal);
    std::size_t moved_out = 0, dx_moved_out = 0, dx_torch_moved_out = 0, outside_torch = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      CAPTURE(k);
      CHECK(inside_norm_bound(r.y[k], f.y[k]));
      CHECK(inside_norm_bound(r.dx[k], nb.dx[k]));
      const float digit = std::pow(10.f, std::floor(std::log10(std::abs(r.y[k]))) - 5);
      if (!inside_norm_bound(r.y[k] + 5 * digit, f.y[k])) ++moved_out;
      const float dx_digit = std::pow(10.f, std::floor(std::log10(std::abs(r.dx[k]))) - 5);
      dx_moved_out += !inside_norm_bound(r.dx[k] + 5 * dx_digit, nb.dx[k]);
      dx_torch_moved_out += !inside_norm_bound(r.dx[k] + 5 * dx_digit, torch_b.dx[k]);
      outside_torch += !inside_norm_bound(r.y[k], torch_f.y[k]) + !inside_norm_bound(r.dx[k], torch_b.dx[k]);
    }
    for (std::size_t j = 0; j < n; ++j) {
      CHECK(inside_norm_bound(r.dgamma[j], nb.dgamma[j]));
      CHECK(inside_norm_bound(r.dbeta[j], nb.dbeta[j]));
    }
    MESSAGE("outputs whose 6th-digit change leaves the bound: " << moved_out << " of " << x.size() << "; dx entries: " << dx_moved_out
                                                                 << " (torch's bound: " << dx_torch_moved_out
                                                                 << "); JAX values outside torch's bounds: " << outside_torch);
    CHECK(moved_out * 2 > x.size());
  }
}
