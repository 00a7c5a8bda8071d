#pragma once
// Kernel bodies for nltrain's outer optimizer (nltrain-math §10) on a device: the global
// gradient norm's partial sums of squares and the per-element AdamW update, over the flat
// parameter vector (MagParams::to_flat order) where the moments m and v live between steps.
//
// AdamWBody is nl::update_range's loop body (libcore/nl/adamw.cpp): every value in double, each
// moment stored once in float, the coefficients (bias corrections from the host's pow) passed
// in. Its products and sums must not be contracted into fused multiply-adds, since the host's are
// not (adamw.cpp is built with -ffp-contract=off): nvcc contracts by default (-fmad=true, kept for
// the other bodies), so here the CUDA side rounds each operation by its _rn intrinsic, which nvcc
// never fuses, and the CPU launcher (cpu_backend.cpp) is built with -ffp-contract=off. Division
// and square root in double are correctly rounded on both. So the update is bit for bit the host's.
//
// The norm: partial p (p < kNormPartials) sums g[p]^2, g[p + P]^2, g[p + 2P]^2, ... in order, in
// double (each square of a float is exact in double), then ReduceRowsF64 sums the P partials in
// order. The order is fixed (no thread count or launch shape enters it), and for n <= P values it
// is the host's sequential order exactly: the partials are then the squares themselves and the
// reduction adds them one after another (empty partials add +0). For n > P the two orders differ;
// each is a recursive sum of n nonnegative terms, within gamma_{n-1} of the exact sum S, so
// |device - host| <= 2 gamma_n S (gamma_n = n u / (1 - n u), u = 2^-53), and the norms' square
// roots within gamma_n + 2u (relative) of each other, plus terms of order u^2.
#include <cmath>
#include <cstddef>

#include "gpu/hd.hpp"

namespace gpu {

// Partials of the global norm: a fixed count, so the order depends on n alone.
inline constexpr std::size_t kNormPartials = 4096;

// Products and sums in double rounded one by one (see above).
GPU_HD inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GPU_HD inline double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
GPU_HD inline double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
GPU_HD inline double div_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
GPU_HD inline double sqrt_rn(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
GPU_HD inline float mul_rn_f(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

struct SquarePartialsArgs {
  const float* g;
  std::size_t n;
  double* partials;  // kNormPartials
};

struct SquarePartials {
  using Args = SquarePartialsArgs;
  GPU_HD static void run(const Args& a, std::size_t p) {
    double acc = 0;
    for (std::size_t j = p; j < a.n; j += kNormPartials) {
      const double x = a.g[j];
      acc = add_rn(acc, mul_rn(x, x));
    }
    a.partials[p] = acc;
  }
};

// One range of the flat vectors with its group's coefficients (nl::AdamWCoefficients' fields);
// index i updates element begin + i.
struct AdamWArgs {
  std::size_t begin;
  const float* g;
  float *theta, *m, *v;
  bool clipped;
  float scale;  // the clip factor, applied in float first when clipped (clip_global_norm's x *= s)
  double b1, b2, a1, a2, c1, c2, eps, wd, lr;
};

struct AdamWBody {
  using Args = AdamWArgs;
  GPU_HD static void run(const Args& a, std::size_t i) {
    const std::size_t j = a.begin + i;
    const double gi = a.clipped ? mul_rn_f(a.g[j], a.scale) : a.g[j];
    const float mj = static_cast<float>(add_rn(mul_rn(a.b1, a.m[j]), mul_rn(a.a1, gi)));
    const float vj = static_cast<float>(add_rn(mul_rn(a.b2, a.v[j]), mul_rn(mul_rn(a.a2, gi), gi)));
    a.m[j] = mj, a.v[j] = vj;
    const double m_hat = div_rn(mj, a.c1), v_hat = div_rn(vj, a.c2);
    const double upd = add_rn(div_rn(m_hat, add_rn(sqrt_rn(v_hat), a.eps)), mul_rn(a.wd, a.theta[j]));
    a.theta[j] = static_cast<float>(sub_rn(a.theta[j], mul_rn(a.lr, upd)));
  }
};

}  // namespace gpu
