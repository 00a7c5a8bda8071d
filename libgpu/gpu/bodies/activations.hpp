#pragma once
// The scalar functions the kernel bodies share, as GPU_HD float functions with the same
// definitions as tape/ops/activation.hpp (sigmoid clamped to exactly 0 / 1 beyond |x| >= 15).
#include <cmath>

#include "gpu/hd.hpp"

namespace gpu {

GPU_HD inline float sigmoid_c(float x) {
  if (x >= 15.f) return 1.f;
  if (x <= -15.f) return 0.f;
  return 1.f / (1.f + expf(-x));
}
GPU_HD inline float silu(float x) { return x * sigmoid_c(x); }
GPU_HD inline float silu_d1(float x) {
  const float s = sigmoid_c(x);
  return s + x * s * (1.f - s);
}
GPU_HD inline float silu_d2(float x) {
  const float s = sigmoid_c(x);
  return s * (1.f - s) * (2.f + x * (1.f - 2.f * s));
}

// The attentional bias psi and its derivative (nl/attentional_bias.hpp): identity (MEMORA),
// l_p (Moneta), Huber (YAAD).
struct Bias {
  enum Kind : int { identity = 0, lp = 1, huber = 2 } kind = identity;
  float p = 2.f, a_s = 10.f, delta = 1.f;
  static constexpr float kLpEps = 1e-6f;

  GPU_HD float psi(float e) const {
    switch (kind) {
      case identity: return e;
      case huber: return fabsf(e) < delta ? e : (e > 0.f ? delta : -delta);
      case lp:
        if (p == 2.f) return 2.f * e;
        if (p == 1.f) return tanhf(a_s * e);
        return p * tanhf(a_s * e) * powf(e * e + kLpEps, (p - 1.f) / 2.f);
    }
    return e;
  }
  GPU_HD float dpsi(float e) const {
    switch (kind) {
      case identity: return 1.f;
      case huber: return fabsf(e) < delta ? 1.f : 0.f;
      case lp: {
        if (p == 2.f) return 2.f;
        const float th = tanhf(a_s * e), slope = a_s * (1.f - th * th);
        if (p == 1.f) return slope;
        const float r = e * e + kLpEps;
        return p * (slope * powf(r, (p - 1.f) / 2.f) + th * (p - 1.f) * e * powf(r, (p - 3.f) / 2.f));
      }
    }
    return 1.f;
  }
};

}  // namespace gpu
