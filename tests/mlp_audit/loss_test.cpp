// The losses' Tracked bounds against plain fp32 evaluations in ATen's formulas:
// BCEWithLogitsLoss (mean and sum) and the half squared error (exactly half of MSELoss).
#include "mlp_audit/loss.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

namespace loss_test {  // named: the unity build joins the test files

using namespace mlp_audit;

bool inside_loss_bound(float stored, const T32& ref) { return std::abs(static_cast<double>(stored) - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149; }

Model model_of(LossKind k, Reduction r, std::size_t c) {
  Model m;
  m.layers = {{4, c, Activation::identity}};
  m.loss = k, m.reduction = r;
  return m;
}

}  // namespace loss_test

using namespace loss_test;

TEST_CASE("loss: BCEWithLogitsLoss in fp32 lies within its bound; its 7th digit moved does not") {
  std::mt19937 rng(11);
  std::normal_distribution<float> n(0, 3);
  std::uniform_real_distribution<float> u(0, 1);
  const std::size_t b = 5, c = 3;
  std::vector<float> x(b * c), t(b * c);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = n(rng), t[i] = i % 4 == 0 ? 1.f : u(rng);
  for (Reduction red : {Reduction::mean, Reduction::sum}) {
    std::vector<T32> y;
    for (float v : x) y.emplace_back(v);
    const LossGradient lg = loss_gradient(model_of(LossKind::bce_with_logits, red, c), y, t, b);
    float sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float mv = std::max(-x[i], 0.f);
      sum += (1 - t[i]) * x[i] + mv + std::log(std::exp(-mv) + std::exp(-x[i] - mv));
      float g = 1.f / (1.f + std::exp(-x[i])) - t[i];
      if (red == Reduction::mean) g /= static_cast<float>(x.size());
      CHECK(inside_loss_bound(g, lg.grad[i]));
    }
    const float loss = red == Reduction::mean ? sum / static_cast<float>(x.size()) : sum;
    CHECK(inside_loss_bound(loss, lg.loss));
    const float digit = std::pow(10.f, std::floor(std::log10(loss)) - 6);
    CHECK_FALSE(inside_loss_bound(loss + 5 * digit, lg.loss));
  }
}

TEST_CASE("loss: the half squared error is half of MSELoss, loss and gradient") {
  const std::vector<float> x{0.5f, -1.25f, 2.f, 0.1f, 3.f, -0.7f}, t{0.f, 1.f, 1.5f, -0.2f, 2.5f, 0.3f};
  std::vector<T32> y;
  for (float v : x) y.emplace_back(v);
  for (Reduction red : {Reduction::mean, Reduction::sum}) {
    const LossGradient mse = loss_gradient(model_of(LossKind::mse, red, 3), y, t, 2);
    const LossGradient half = loss_gradient(model_of(LossKind::half_squared_error, red, 3), y, t, 2);
    CHECK(half.loss.v == mse.loss.v / 2);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(half.grad[i].v == mse.grad[i].v / 2);
    double s = 0;
    for (std::size_t i = 0; i < x.size(); ++i) s += 0.5 * (double{x[i]} - t[i]) * (double{x[i]} - t[i]);
    CHECK(half.loss.v == doctest::Approx(red == Reduction::mean ? s / 6 : s).epsilon(1e-15));
  }
}

TEST_CASE("loss: CrossEntropyLoss with class weights and label smoothing in fp32 lies within its bound") {
  const std::size_t b = 4, c = 3;
  const std::vector<float> x{0.3f, -1.2f, 2.2f, 1.5f, 0.1f, -0.4f, -2.f, 0.7f, 0.2f, 0.9f, 0.8f, -0.3f};
  const std::vector<float> t{2, 0, 1, 1}, w{0.7f, 1.3f, 2.1f};
  std::vector<T32> y;
  for (float v : x) y.emplace_back(v);
  for (Reduction red : {Reduction::mean, Reduction::sum}) {
    CAPTURE(static_cast<int>(red));
    Model m = model_of(LossKind::cross_entropy, red, c);
    m.class_weight = w, m.label_smoothing = 0.2;
    const LossGradient lg = loss_gradient(m, y, t, b);
    // Plain fp32: log_softmax, the weighted nll and smoothing terms, their gradient.
    std::vector<float> lp(b * c);
    float nll = 0, smooth = 0, wsum = 0;
    for (std::size_t i = 0; i < b; ++i) {
      float mx = std::max({x[i * c], x[i * c + 1], x[i * c + 2]}), s = 0;
      for (std::size_t j = 0; j < c; ++j) s += std::exp(x[i * c + j] - mx);
      for (std::size_t j = 0; j < c; ++j) lp[i * c + j] = x[i * c + j] - mx - std::log(s), smooth -= w[j] * lp[i * c + j];
      const auto k = static_cast<std::size_t>(t[i]);
      nll -= w[k] * lp[i * c + k], wsum += w[k];
    }
    const float denom = red == Reduction::mean ? wsum : 1.f;
    const float loss = 0.8f * (nll / denom) + (smooth / denom) * (0.2f / 3);
    CHECK(inside_loss_bound(loss, lg.loss));
    for (std::size_t i = 0; i < b; ++i) {
      const auto k = static_cast<std::size_t>(t[i]);
      float g[3], gs = 0;
      for (std::size_t j = 0; j < c; ++j) g[j] = (j == k ? -w[k] * (0.8f / denom) : 0.f) - (0.2f / 3) / denom * w[j], gs += g[j];
      for (std::size_t j = 0; j < c; ++j) CHECK(inside_loss_bound(g[j] - std::exp(lp[i * c + j]) * gs, lg.grad[i * c + j]));
    }
    // Torch's documented mean: divided by the targets' weights (2.1 + 0.7 + 1.3 + 1.3 = 5.4), not by the batch.
    if (red == Reduction::mean) CHECK_FALSE(inside_loss_bound(loss * 5.4f / 4, lg.loss));
  }
}
