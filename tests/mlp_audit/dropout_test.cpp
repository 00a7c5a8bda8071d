// Dropout in the recomputed step: the recorded mask scales kept entries by 1 / (1 - p) in the
// forward and the backward (ATen's input * noise), an fp32 evaluation lies within the bounds,
// and one kept entry marked dropped moves the loss outside its bound.
#include <doctest/doctest.h>

#include <cmath>

#include "mlp_audit/step.hpp"

namespace dropout_test {  // named: the unity build joins the test files

using namespace mlp_audit;

bool inside_drop_bound(float stored, const T32& ref) {
  return std::abs(static_cast<double>(stored) - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149;
}

// Linear(3, 4) -> tanh -> Dropout(p) -> Linear(4, 1), MSE (sum), in plain fp32, batch 2.
struct DropFp32 {
  float loss = 0;
  std::vector<float> dw2;
};
// jax: stax.Dropout's x / rate for a kept entry (a division, or XLA's multiplication by the rounded
// reciprocal under jit); torch: x * (1 / (1 - p)).
enum class Scaling { torch_noise, jax_divide, jax_reciprocal };
DropFp32 drop_fp32_step(const Params& p, const std::vector<float>& x, const std::vector<float>& t, const std::vector<float>& mask, float keep,
                        Scaling how = Scaling::torch_noise) {
  DropFp32 r;
  r.dw2.assign(4, 0);
  const float scale = 1.f / keep;
  auto dropout = [&](float v, float m) { return how == Scaling::jax_divide ? (m != 0 ? v / keep : 0.f) : v * (m * scale); };
  for (std::size_t i = 0; i < 2; ++i) {
    float h[4], y = p[3][0];
    for (std::size_t j = 0; j < 4; ++j) {
      float s = p[1][j];
      for (std::size_t k = 0; k < 3; ++k) s += x[i * 3 + k] * p[0][j * 3 + k];
      h[j] = dropout(std::tanh(s), mask[i * 4 + j]);
      y += h[j] * p[2][j];
    }
    const float d = y - t[i];
    r.loss += d * d;
    for (std::size_t j = 0; j < 4; ++j) r.dw2[j] += 2 * d * h[j];
  }
  return r;
}

// Linear(3, 4) -> tanh -> Dropout -> Linear(4, 1), MSE (sum); `keeps`: rate is stax's keep rate.
Model drop_model(double rate, bool keeps) {
  Model m;
  m.layers = {{3, 4, Activation::tanh}, {4, 1, Activation::identity}};
  m.layers[0].dropout = rate, m.layers[0].dropout_keeps = keeps;
  m.loss = LossKind::mse, m.reduction = Reduction::sum;
  return m;
}

struct DropCase {
  Params p;
  std::vector<float> x, t;
};
const DropCase kDropCase{{{0.5f, -0.2f, 0.1f, 0.3f, 0.8f, -0.6f, -0.4f, 0.2f, 0.9f, 0.7f, -0.1f, 0.25f},
                          {0.1f, -0.1f, 0.05f, 0.2f},
                          {0.6f, -0.9f, 0.4f, 1.1f},
                          {0.05f}},
                         {1.f, -0.5f, 0.25f, -1.5f, 0.75f, 2.f},
                         {0.3f, -0.2f}};

}  // namespace dropout_test

using namespace dropout_test;

TEST_CASE("dropout: the recorded mask drives forward and backward; a flipped entry leaves the loss's bound") {
  Model m = drop_model(0.3, false);
  const auto& [p, x, t] = kDropCase;
  std::vector<float> mask{1, 0, 1, 1, 1, 0, 1, 0};
  const Backprop ref = forward_backward(m, p, x, t, 2, {mask});
  const DropFp32 f = drop_fp32_step(p, x, t, mask, 0.7f);
  CHECK(inside_drop_bound(f.loss, ref.loss));
  for (std::size_t j = 0; j < 4; ++j) CHECK(inside_drop_bound(f.dw2[j], ref.gradients[2][j]));
  CHECK(ref.gradients[2][1].v == 0);  // dropped in both rows: no gradient reaches it
  mask[0] = 0;
  const Backprop flipped = forward_backward(m, p, x, t, 2, {mask});
  CHECK_FALSE(inside_drop_bound(f.loss, flipped.loss));
}

TEST_CASE("dropout: stax.Dropout's keep rate divides kept entries (JAX); torch's 1 / (1 - p) reading of it leaves the bounds") {
  Model m = drop_model(0.7, true);  // stax.Dropout(0.7): keeps 70%
  const auto& [p, x, t] = kDropCase;
  std::vector<float> mask{1, 0, 1, 1, 1, 0, 1, 0};
  const Backprop ref = forward_backward(m, p, x, t, 2, {mask});
  for (const Scaling how : {Scaling::jax_divide, Scaling::jax_reciprocal}) {
    const DropFp32 f = drop_fp32_step(p, x, t, mask, 0.7f, how);
    CHECK(inside_drop_bound(f.loss, ref.loss));
    for (std::size_t j = 0; j < 4; ++j) CHECK(inside_drop_bound(f.dw2[j], ref.gradients[2][j]));
  }
  const DropFp32 f = drop_fp32_step(p, x, t, mask, 0.7f, Scaling::jax_divide);
  m.layers[0].dropout_keeps = false;  // the same number read as nn.Dropout's p: kept entries / 0.3
  CHECK_FALSE(inside_drop_bound(f.loss, forward_backward(m, p, x, t, 2, {mask}).loss));
  m.layers[0].dropout_keeps = true;
  mask[0] = 0;
  CHECK_FALSE(inside_drop_bound(f.loss, forward_backward(m, p, x, t, 2, {mask}).loss));
}
