#pragma once
// Kernel bodies for Trellis (nltrain-math §6.10): the two-pass compressed memory S_K (d_c x d),
// S_V (d x d_c), read before write with the NormalizedSiLU N:
//   read:   rho = S_K q, c = N(rho), y = S_V c
//   pass 1: e_k = S_K x - k[:d_c],  S_K' = (1 - alpha - theta lambda_k) S_K - theta e_k x^T
//   pass 2: c_k = N(S_K' x), e_v = S_V c_k - v,  S_V' = (1 - alpha - theta lambda_v) S_V - theta e_v c_k^T
// Phased like the MLP rules (N normalizes over d_c, coupling the rows); index spaces are the d_c
// rows of S_K, the d rows of S_V, or both ("state rows": S_K's first). The gates' adjoints go to
// per-state-row partials, summed by ReduceRows.
#include <cstddef>

#include "gpu/bodies/activations.hpp"
#include "gpu/bodies/matrix_rules.hpp"
#include "gpu/hd.hpp"

namespace gpu {

struct TrellisArgs {
  std::size_t s, d, dc;
  float lambda_k, lambda_v;
  const float *x, *k, *v, *q, *alpha, *theta;  // s x d, s
  float* st;             // (s+1) x 2 d_c d: S_K then S_V; the initial state on entry
  float *read, *key;     // s x (2 d_c + 1): rho, c = N(rho), ||silu(rho)||, for the read and the pass-2 key
  float *ek, *ev;        // s x d_c, s x d
  float* y;              // s x d
  // Backward only.
  const float* gy;                         // s x d
  float* gst;                              // 2 d_c d: the adjoint of the state after the step in, before it out
  float *gcq, *grq, *gck, *grk, *gek;      // d_c
  float* gev;                              // d
  float *gx, *gq, *gk, *gv;                // s x d
  float *palpha, *ptheta;                  // (d_c + d) x s

  GPU_HD std::size_t nk() const { return dc * d; }
  GPU_HD std::size_t n() const { return 2 * dc * d; }
  GPU_HD std::size_t nr() const { return 2 * dc + 1; }
};

// Entry i of N(rho) over n entries; writes the norm ||silu(rho)|| to *norm_out when non-null.
GPU_HD inline float normalized_silu_at(const float* rho, std::size_t n, std::size_t i, float* norm_out) {
  float sq = 0.f;
  for (std::size_t j = 0; j < n; ++j) {
    const float sj = silu(rho[j]);
    sq += sj * sj;
  }
  const float norm = sqrtf(sq);
  if (norm_out) *norm_out = norm;
  const float scale = norm > 1e-8f ? sqrtf(static_cast<float>(n)) / norm : 0.f;
  return silu(rho[i]) * scale;
}

// Entry i of N'(rho)^T g, from the cache (rho, c, norm).
GPU_HD inline float normalized_silu_vjp_at(const float* rho, const float* c, float norm, const float* g,
                                           std::size_t n, std::size_t i) {
  if (!(norm > 1e-8f)) return 0.f;
  const float gain = sqrtf(static_cast<float>(n));
  float dot = 0.f;
  for (std::size_t j = 0; j < n; ++j) dot += c[j] * g[j];
  const float dc = gain / norm * g[i] - dot / (gain * norm) * c[i];
  return dc * silu_d1(rho[i]);
}

struct TrellisForward {
  using Args = TrellisArgs;
  static constexpr int kPhases = 6;
  GPU_HD static std::size_t width(const Args& a, int phase) {
    switch (phase) {
      case 2: return a.d + a.dc;
      case 5: return a.d;
      default: return a.dc;
    }
  }
  GPU_HD static void run(const Args& a, std::size_t t, int phase, std::size_t i) {
    const std::size_t d = a.d, dc = a.dc, nk = a.nk(), n = a.n(), nr = a.nr();
    const float* sk = a.st + t * n;
    const float* sv = sk + nk;
    float* skn = a.st + (t + 1) * n;
    float* svn = skn + nk;
    const float* x = a.x + t * d;
    float* rd = a.read + t * nr;
    float* ky = a.key + t * nr;
    const float alpha = a.alpha[t], th = a.theta[t];
    switch (phase) {
      case 0:
        rd[i] = row_dot(sk + i * d, a.q + t * d, d);
        a.ek[t * dc + i] = row_dot(sk + i * d, x, d) - a.k[t * d + i];
        return;
      case 1: rd[dc + i] = normalized_silu_at(rd, dc, i, i == 0 ? rd + 2 * dc : nullptr); return;
      case 2:
        if (i < d) {
          a.y[t * d + i] = row_dot(sv + i * dc, rd + dc, dc);
        } else {
          const std::size_t r = i - d;
          const float keep = 1.f - alpha - th * a.lambda_k, e = a.ek[t * dc + r];
          for (std::size_t j = 0; j < d; ++j) skn[r * d + j] = keep * sk[r * d + j] - th * e * x[j];
        }
        return;
      case 3: ky[i] = row_dot(skn + i * d, x, d); return;
      case 4: ky[dc + i] = normalized_silu_at(ky, dc, i, i == 0 ? ky + 2 * dc : nullptr); return;
      default: {
        const float e = row_dot(sv + i * dc, ky + dc, dc) - a.v[t * d + i];
        a.ev[t * d + i] = e;
        const float keep = 1.f - alpha - th * a.lambda_v;
        for (std::size_t j = 0; j < dc; ++j) svn[i * dc + j] = keep * sv[i * dc + j] - th * e * ky[dc + j];
        return;
      }
    }
  }
};

struct TrellisBackward {
  using Args = TrellisArgs;
  static constexpr int kPhases = 6;
  GPU_HD static std::size_t width(const Args& a, int phase) {
    switch (phase) {
      case 1: return a.d;
      case 4: return a.d;
      case 5: return a.d + a.dc;
      default: return a.dc;
    }
  }
  GPU_HD static void run(const Args& a, std::size_t step, int phase, std::size_t i) {
    const std::size_t t = a.s - 1 - step;
    const std::size_t d = a.d, dc = a.dc, nk = a.nk(), n = a.n(), nr = a.nr();
    const float* sk = a.st + t * n;
    const float* sv = sk + nk;
    const float* skn = a.st + (t + 1) * n;
    const float* x = a.x + t * d;
    const float* q = a.q + t * d;
    const float* gy = a.gy + t * d;
    const float* rd = a.read + t * nr;
    const float* ky = a.key + t * nr;
    const float* ev = a.ev + t * d;
    float* gsk = a.gst;
    float* gsv = a.gst + nk;
    const float alpha = a.alpha[t], th = a.theta[t];
    switch (phase) {
      case 0: {  // gc_q = S_V^T gy; gc_k = -theta gS_V^T e_v
        float acc = 0.f, acc_k = 0.f;
        for (std::size_t m = 0; m < d; ++m) {
          acc += sv[m * dc + i] * gy[m];
          acc_k += gsv[m * dc + i] * ev[m];
        }
        a.gcq[i] = acc;
        a.gck[i] = -th * acc_k;
        return;
      }
      case 1: {  // S_V row i: g e_v, gv, the gate partials
        const float gsc = row_dot(gsv + i * dc, ky + dc, dc);
        const float gss = row_dot(gsv + i * dc, sv + i * dc, dc);
        a.gev[i] = -th * gsc;
        a.gv[t * d + i] = th * gsc;
        a.palpha[(dc + i) * a.s + t] = -gss;
        a.ptheta[(dc + i) * a.s + t] = -(ev[i] * gsc + a.lambda_v * gss);
        return;
      }
      case 2: {  // the read's g rho_q; gc_k += S_V^T g e_v
        a.grq[i] = normalized_silu_vjp_at(rd, rd + dc, rd[2 * dc], a.gcq, dc, i);
        float acc = 0.f;
        for (std::size_t m = 0; m < d; ++m) acc += sv[m * dc + i] * a.gev[m];
        a.gck[i] += acc;
        return;
      }
      case 3: {  // S_K row i: g rho_k reaches S_K' (rho_k = S_K' x); then pass 1's g e_k and partials
        const float grk = normalized_silu_vjp_at(ky, ky + dc, ky[2 * dc], a.gck, dc, i);
        a.grk[i] = grk;
        float* g = gsk + i * d;
        float gx_dot = 0.f, gss = 0.f;
        for (std::size_t j = 0; j < d; ++j) {
          g[j] += grk * x[j];
          gx_dot += g[j] * x[j];
          gss += g[j] * sk[i * d + j];
        }
        a.gek[i] = -th * gx_dot;
        a.palpha[i * a.s + t] = -gss;
        a.ptheta[i * a.s + t] = -(a.ek[t * dc + i] * gx_dot + a.lambda_k * gss);
        return;
      }
      case 4: {  // column i: gx (direct), gq, gk
        float gx = 0.f, gq = 0.f;
        for (std::size_t r = 0; r < dc; ++r) {
          gx += skn[r * d + i] * a.grk[r] - th * gsk[r * d + i] * a.ek[t * dc + r] + sk[r * d + i] * a.gek[r];
          gq += sk[r * d + i] * a.grq[r];
        }
        a.gx[t * d + i] = gx;
        a.gq[t * d + i] = gq;
        a.gk[t * d + i] = i < dc ? -a.gek[i] : 0.f;
        return;
      }
      default: {  // state row i: the adjoint of the state before the step (the read saw it too)
        if (i < dc) {
          float* g = gsk + i * d;
          const float keep = 1.f - alpha - th * a.lambda_k;
          for (std::size_t j = 0; j < d; ++j) g[j] = keep * g[j] + a.gek[i] * x[j] + a.grq[i] * q[j];
        } else {
          const std::size_t m = i - dc;
          float* g = gsv + m * dc;
          const float keep = 1.f - alpha - th * a.lambda_v;
          for (std::size_t j = 0; j < dc; ++j) g[j] = keep * g[j] + a.gev[m] * ky[dc + j] + gy[m] * rd[dc + j];
        }
        return;
      }
    }
  }
};

}  // namespace gpu
