// ATen's CPU kernels: threshold_backward on the ReLU output, sigmoid as 1 / (1 + exp(-x)), and
// GELU's kernels (GeluKernel.cpp): exact as x * 0.5 * (1 + erf(x / sqrt 2)) with the backward
// dy * (cdf + x * pdf), tanh as 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) with its
// backward spelled as ATen does.
#include "mlp_audit/activation.hpp"

#include <cmath>
#include <numbers>

namespace mlp_audit {
// Named, not anonymous: the unity build puts this file beside step.cpp.
namespace activation_detail {

// ATen's vectorized erf (the GELU kernel's, all torch versions since 1.x) is Abramowitz & Stegun
// 7.1.26, 1 - (p1 t + ... + p5 t^5) exp(-x^2) with t = 1 / (1 + 0.3275911 |x|): 1.5e-7 absolute
// error in exact arithmetic, and about a dozen fp32 roundings of terms at most 1 in magnitude
// (16 allowed: 2^-20). Measured on torch 1.13 (AVX2) over [-6, 6]: GELU's erf is off by up to
// about 5e-7 near 0, so libm's ulps alone would not cover it. Added to the erf bound.
constexpr double kVectorErfAbs = 1.5e-7 + 0x1p-20;

T32 aten_erf(const T32& x) {
  T32 r = erf(x);
  r.e += kVectorErfAbs;
  return r;
}

T32 sigmoid(const T32& z) { return T32(1) / (T32(1) + exp(-z)); }

const T32 kHalf(0.5), kOne(1);
// GELU exact: erf's argument scale and the normal density's constant, as ATen rounds them.
const T32 kSqrtHalf(std::numbers::sqrt2 / 2), kPdf(std::numbers::inv_sqrtpi * std::numbers::sqrt2 / 2);
// GELU tanh: sqrt(2 / pi) and the cubic's coefficient.
const T32 kBeta(std::numbers::sqrt2 * std::numbers::inv_sqrtpi), kKappa(0.044715);

T32 gelu_tanh_inner(const T32& z) { return kBeta * (z + kKappa * (z * z * z)); }

}  // namespace activation_detail

using namespace activation_detail;

T32 activate(const Layer& l, const T32& z) {
  switch (l.activation) {
    case Activation::identity: return z;
    case Activation::relu: return z.v + z.e < 0 ? T32(0) : max(z, T32(0));  // surely negative: 0 in both
    case Activation::leaky_relu: {
      const T32 low = z * T32(l.negative_slope);
      if (z.e > 0 && std::abs(z.v) <= z.e) return either(z, low);  // fp32 may take either side
      return z.v > 0 ? z : low;
    }
    case Activation::sigmoid: return sigmoid(z);
    case Activation::tanh: return tanh(z);
    case Activation::silu: return z / (T32(1) + exp(-z));
    case Activation::gelu: return z * kHalf * (kOne + aten_erf(z * kSqrtHalf));
    case Activation::gelu_tanh: return kHalf * z * (kOne + tanh(gelu_tanh_inner(z)));
  }
  return z;
}

T32 derive(const Layer& l, const T32& z, const T32& a, const T32& g, std::uint64_t& kinks) {
  switch (l.activation) {
    case Activation::identity: return g;
    case Activation::relu:  // threshold_backward(g, output, 0): g where output > 0
      if (z.e > 0 && std::abs(z.v) <= z.e) {
        ++kinks;
        return either(g, T32(0));
      }
      return z.v > 0 ? g : T32(0);
    case Activation::leaky_relu: {  // z > 0 ? g : g * slope
      const T32 low = g * T32(l.negative_slope);
      if (std::abs(z.v) <= z.e && z.e > 0) {
        ++kinks;
        return either(g, low);
      }
      return z.v > 0 ? g : low;
    }
    case Activation::sigmoid: return g * (T32(1) - a) * a;
    case Activation::tanh: return g * (T32(1) - a * a);
    case Activation::silu: {
      const T32 s = sigmoid(z);
      return g * s * (T32(1) + z * (T32(1) - s));
    }
    case Activation::gelu: {
      const T32 cdf = kHalf * (kOne + aten_erf(z * kSqrtHalf));
      const T32 pdf = kPdf * exp(z * z * T32(-0.5));
      return g * (cdf + z * pdf);
    }
    case Activation::gelu_tanh: {
      const T32 t = tanh(gelu_tanh_inner(z));
      const T32 left_derivative = kHalf * (kOne + t);
      const T32 inner_derivative = kBeta * (kOne + T32(3) * kKappa * (z * z));
      const T32 right_derivative = kHalf * z * (kOne - t * t) * inner_derivative;
      return g * (left_derivative + right_derivative);
    }
  }
  return g;
}

}  // namespace mlp_audit
