// jax.nn (jax 0.10.2, jax/_src/nn/functions.py) and the jaxprs of jax.vjp of each, written out
// below in their operation order (`jax.make_jaxpr(lambda x, g: jax.vjp(f, x)[1](g))`):
//   sigmoid   lax.logistic(x); backward g * (s * (1 - s))
//   tanh      backward e + e * t with e = g * (1 - t)
//   silu      x * s, s = lax.logistic(x); backward g * s + (x * g) * (s * (1 - s))
//   gelu      approximate=False: (0.5 x) * erfc(-x * sqrt(1/2)); backward
//             0.5 (g erfc(e)) - ((-2/sqrt(pi)) (0.5 x g) exp(-(e e))) sqrt(1/2), e = -x sqrt(1/2)
//   gelu_tanh approximate=True (stax.Gelu): x * (0.5 (1 + tanh(c (x + k x (x x))))), its
//             backward spelled out in derive_gelu_tanh.
// The constants are JAX's fp32 roundings of sqrt(2/pi), 0.044715, sqrt(1/2) and -2/sqrt(pi):
// T32(double) carries each one's rounding as its error.
#include "mlp_audit/jax_activation.hpp"

#include <numbers>

#include "mlp_audit/activation.hpp"
#include "mlp_audit/xla_math.hpp"

namespace mlp_audit {
// Named, not anonymous: the unity build puts this file beside activation.cpp.
namespace jax_activation_detail {

const T32 kHalf(0.5), kOne(1), kThree(3);
const T32 kSqrtHalf(std::numbers::sqrt2 / 2), kMinusTwoOverSqrtPi(-2 * std::numbers::inv_sqrtpi);
const T32 kBeta(std::numbers::sqrt2 * std::numbers::inv_sqrtpi), kKappa(0.044715);

// integer_pow(x, 3) by repeated squaring: x * (x * x).
T32 gelu_tanh_tanh(const T32& z) { return xla_tanh(kBeta * (z + kKappa * (z * (z * z)))); }

T32 derive_gelu_tanh(const T32& z, const T32& g) {
  const T32 i = gelu_tanh_tanh(z);
  const T32 l = kHalf * (kOne + i);
  const T32 p = (kHalf * (z * g)) * (kOne - i);
  const T32 s = kBeta * (p + p * i);
  return (g * l + s) + (kKappa * s) * (kThree * (z * z));
}

T32 derive_gelu(const T32& z, const T32& g) {
  const T32 e = -z * kSqrtHalf;
  const T32 half_z = kHalf * z;
  const T32 p = ((kMinusTwoOverSqrtPi * (half_z * g)) * xla_exp(-(e * e))) * kSqrtHalf;
  return kHalf * (g * xla_erfc(e)) - p;
}

// Inside the namespace: its constants, not activation.cpp's of the same names, in the unity build.
T32 forward(const Layer& l, const T32& z) {
  switch (l.activation) {
    case Activation::sigmoid: return xla_logistic(z);
    case Activation::tanh: return xla_tanh(z);
    case Activation::silu: return z * xla_logistic(z);
    case Activation::gelu: return (kHalf * z) * xla_erfc(-z * kSqrtHalf);
    case Activation::gelu_tanh: return z * (kHalf * (kOne + gelu_tanh_tanh(z)));
    case Activation::identity:
    case Activation::relu:
    case Activation::leaky_relu: break;
  }
  return activate(l, z);
}

T32 backward(const Layer& l, const T32& z, const T32& a, const T32& g, std::uint64_t& kinks) {
  switch (l.activation) {
    case Activation::sigmoid: return g * (a * (kOne - a));
    case Activation::tanh: {
      const T32 e = g * (kOne - a);
      return e + e * a;
    }
    case Activation::silu: {
      const T32 s = xla_logistic(z);
      return g * s + (z * g) * (s * (kOne - s));
    }
    case Activation::gelu: return derive_gelu(z, g);
    case Activation::gelu_tanh: return derive_gelu_tanh(z, g);
    case Activation::leaky_relu:  // where(x >= 0, x, slope x): slope 1 at an exact 0 (torch's: the slope)
      if (z.e == 0 && z.v == 0) return g;
      break;
    case Activation::identity:
    case Activation::relu: break;  // relu's custom JVP: g where x > 0, as threshold_backward
  }
  return derive(l, z, a, g, kinks);
}

}  // namespace jax_activation_detail

T32 jax_activate(const Layer& l, const T32& z) { return jax_activation_detail::forward(l, z); }

T32 jax_derive(const Layer& l, const T32& z, const T32& a, const T32& g, std::uint64_t& kinks) {
  return jax_activation_detail::backward(l, z, a, g, kinks);
}

}  // namespace mlp_audit
