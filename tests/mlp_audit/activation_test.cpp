// The activations' Tracked bounds against fp32 evaluations written the way ATen's CPU kernels
// write them (GELU's erf as the vectorized kernel's Abramowitz & Stegun 7.1.26 polynomial, and as
// libm's erff), and GELU's two variants told apart by those bounds.
#include "mlp_audit/activation.hpp"

#include <doctest/doctest.h>

#include <cmath>

namespace activation_test {  // named: the unity build joins the test files

using namespace mlp_audit;

bool inside_act_bound(float stored, const T32& ref) { return std::abs(static_cast<double>(stored) - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149; }

// ATen's Vectorized<float>::erf, lane by lane.
float vector_erf(float x) {
  const float t = 1.f / (0.3275911f * std::fabs(x) + 1.f);
  const float r = (((1.061405429f * t + -1.453152027f) * t + 1.421413741f) * t + -0.284496736f) * t + 0.254829592f;
  return std::copysign(1.f - r * t * std::exp(-x * x), x);
}

template <class Erf>
float gelu32(float x, Erf erf) { return x * 0.5f * (1.f + erf(x * 0.70710678f)); }
template <class Erf>
float gelu_grad32(float x, float dy, Erf erf) {
  const float cdf = 0.5f * (1.f + erf(x * 0.70710678f));
  const float pdf = 0.39894228f * std::exp(x * x * -0.5f);
  return dy * (cdf + x * pdf);
}
float gelu_tanh32(float x) { return 0.5f * x * (1.f + std::tanh(0.7978846f * (x + 0.044715f * (x * x * x)))); }
float gelu_tanh_grad32(float x, float dy) {
  const float t = std::tanh(0.7978846f * (x + 0.044715f * (x * x * x)));
  const float right = 0.5f * x * (1.f - t * t) * (0.7978846f * (1.f + 3.f * 0.044715f * (x * x)));
  return dy * (0.5f * (1.f + t) + right);
}

}  // namespace activation_test

using namespace activation_test;

TEST_CASE("activation: fp32 GELU (vectorized and libm erf) and GELU tanh lie within their bounds, and the two differ") {
  Layer exact_gelu{1, 1, Activation::gelu}, tanh_gelu{1, 1, Activation::gelu_tanh};
  std::uint64_t kinks = 0;
  std::size_t apart = 0;
  for (int k = -60000; k <= 60000; ++k) {
    const float x = static_cast<float>(k) * 1e-4f;
    CAPTURE(x);
    const T32 z(x), dy(0.75f);
    const T32 a = activate(exact_gelu, z), at = activate(tanh_gelu, z);
    CHECK(inside_act_bound(gelu32(x, vector_erf), a));
    CHECK(inside_act_bound(gelu32(x, [](float v) { return std::erf(v); }), a));
    CHECK(inside_act_bound(gelu_tanh32(x), at));
    const T32 d = derive(exact_gelu, z, a, dy, kinks), dt = derive(tanh_gelu, z, at, dy, kinks);
    CHECK(inside_act_bound(gelu_grad32(x, 0.75f, vector_erf), d));
    CHECK(inside_act_bound(gelu_grad32(x, 0.75f, [](float v) { return std::erf(v); }), d));
    CHECK(inside_act_bound(gelu_tanh_grad32(x, 0.75f), dt));
    if (!inside_act_bound(gelu_tanh32(x), a)) ++apart;
  }
  CHECK(kinks == 0);
  // The tanh approximation is off by up to about 3e-4 (near |x| = 2): most of the grid tells them apart.
  CHECK(apart > 60000);
}

TEST_CASE("activation: a GELU output changed in its 7th significant digit leaves its bound") {
  const Layer gelu{1, 1, Activation::gelu}, gelu_t{1, 1, Activation::gelu_tanh};
  for (float x : {0.5f, 1.25f, 2.f, 3.f}) {
    CAPTURE(x);
    const T32 a = activate(gelu, T32(x)), at = activate(gelu_t, T32(x));
    CHECK_FALSE(inside_act_bound(static_cast<float>(a.v * (1 + 5e-6)), a));
    CHECK_FALSE(inside_act_bound(static_cast<float>(at.v * (1 + 5e-6)), at));
  }
}
