#pragma once
// Kernel bodies for LatticeOSR (nltrain-math §6.9, O-7): m unit-norm slots, read before write.
// Phased like the MLP rules: the read couples the slots through one softmax, the write is
// independent per slot. Index spaces: the slots (m) or the width (d). What a slot's backward
// adds to the adjoints of k, v and alpha goes to per-slot partials, summed by ReduceRows.
#include <cstddef>

#include "gpu/bodies/activations.hpp"
#include "gpu/bodies/matrix_rules.hpp"
#include "gpu/hd.hpp"

namespace gpu {

enum class LatticeWrite : int { decode = 0, encode = 1, similarity = 2 };

struct LatticeArgs {
  LatticeWrite variant;
  std::size_t s, d, m;
  const float *k, *v, *q, *alpha;  // s x d, s
  float* slots;                    // (s+1) x m x d; S_0 on entry
  float* score;                    // m scratch: S_t q (forward), S_t gy (backward)
  float *w, *gamma, *norm;         // s x m
  float* y;                        // s x d
  // Backward only.
  const float* gy;     // s x d
  float* gs;           // m x d: the adjoint of S_{t+1} in, of S_t out (in place, slot by slot)
  float* gr;           // m scratch: the read's score adjoints
  float *pk, *pv;      // m x s x d partials
  float* palpha;       // m x s
  float* gq;           // s x d
};

// The write input u_j of slot `si` (decode: v, encode: k, similarity: v - (S[i].v) S[i]).
GPU_HD inline float lattice_u(const LatticeArgs& a, const float* si, const float* k, const float* v, float mu,
                              std::size_t j) {
  switch (a.variant) {
    case LatticeWrite::decode: return v[j];
    case LatticeWrite::encode: return k[j];
    case LatticeWrite::similarity: return v[j] - mu * si[j];
  }
  return v[j];
}

// w_i = softmax over the slots of score, computed by each slot (m is small).
GPU_HD inline float lattice_softmax(const float* score, std::size_t m, std::size_t i) {
  float mx = 0.f;
  for (std::size_t r = 0; r < m; ++r) mx = (r == 0 || score[r] > mx) ? score[r] : mx;
  float sum = 0.f;
  for (std::size_t r = 0; r < m; ++r) sum += expf(score[r] - mx);
  return sum > 0.f ? expf(score[i] - mx) / sum : expf(score[i] - mx);
}

struct LatticeForward {
  using Args = LatticeArgs;
  static constexpr int kPhases = 4;
  GPU_HD static std::size_t width(const Args& a, int phase) { return phase == 2 ? a.d : a.m; }
  GPU_HD static void run(const Args& a, std::size_t t, int phase, std::size_t i) {
    const std::size_t d = a.d, m = a.m, n = m * d;
    const float* st = a.slots + t * n;
    float* sn = a.slots + (t + 1) * n;
    const float* k = a.k + t * d;
    const float* v = a.v + t * d;
    switch (phase) {
      case 0: a.score[i] = row_dot(st + i * d, a.q + t * d, d); return;
      case 1: a.w[t * m + i] = lattice_softmax(a.score, m, i); return;
      case 2: {  // y_j = sum_i w_i S_t[i][j]
        float acc = 0.f;
        for (std::size_t r = 0; r < m; ++r) acc += a.w[t * m + r] * st[r * d + i];
        a.y[t * d + i] = acc;
        return;
      }
      default: {  // slot i's write
        const float* si = st + i * d;
        const float gamma = sigmoid_c(row_dot(si, k, d));
        const float mu = a.variant == LatticeWrite::similarity ? row_dot(si, v, d) : 0.f;
        const float ag = a.alpha[t] * gamma;
        float su = 0.f;
        for (std::size_t j = 0; j < d; ++j) su += si[j] * lattice_u(a, si, k, v, mu, j);
        const float proj = ag * su;
        float* out = sn + i * d;
        float sq = 0.f;
        for (std::size_t j = 0; j < d; ++j) {
          out[j] = si[j] + ag * lattice_u(a, si, k, v, mu, j) - proj * si[j];
          sq += out[j] * out[j];
        }
        const float norm = sqrtf(sq);
        a.gamma[t * m + i] = gamma;
        a.norm[t * m + i] = norm;
        for (std::size_t j = 0; j < d; ++j) out[j] = norm > 1e-8f ? out[j] / norm : si[j];
        return;
      }
    }
  }
};

struct LatticeBackward {
  using Args = LatticeArgs;
  static constexpr int kPhases = 3;
  GPU_HD static std::size_t width(const Args& a, int phase) { return phase == 2 ? a.d : a.m; }
  GPU_HD static void run(const Args& a, std::size_t step, int phase, std::size_t i) {
    const std::size_t t = a.s - 1 - step;
    const std::size_t d = a.d, m = a.m, n = m * d;
    const float* st = a.slots + t * n;
    const float* sn = a.slots + (t + 1) * n;
    const float* k = a.k + t * d;
    const float* v = a.v + t * d;
    const float* q = a.q + t * d;
    const float* gy = a.gy + t * d;
    const float* w = a.w + t * m;
    switch (phase) {
      case 0: a.score[i] = row_dot(st + i * d, gy, d); return;  // gw_i = S_t[i].gy
      case 1: {
        float wgw = 0.f;
        for (std::size_t r = 0; r < m; ++r) wgw += w[r] * a.score[r];
        const float gr = w[i] * (a.score[i] - wgw);
        a.gr[i] = gr;
        const float* si = st + i * d;
        float* g = a.gs + i * d;  // gS_{t+1}[i] in, gS_t[i] out
        float* pk = a.pk + (i * a.s + t) * d;
        float* pv = a.pv + (i * a.s + t) * d;
        for (std::size_t j = 0; j < d; ++j) pk[j] = pv[j] = 0.f;
        a.palpha[i * a.s + t] = 0.f;
        const float norm = a.norm[t * m + i];
        if (!(norm > 1e-8f)) {  // slot kept as is: identity (O-7)
          for (std::size_t j = 0; j < d; ++j) g[j] += w[i] * gy[j] + gr * q[j];
          return;
        }
        const float alpha = a.alpha[t], gamma = a.gamma[t * m + i], ag = alpha * gamma;
        const float mu = a.variant == LatticeWrite::similarity ? row_dot(si, v, d) : 0.f;
        const float* shat = sn + i * d;
        float su = 0.f, sg = 0.f;
        for (std::size_t j = 0; j < d; ++j) {
          su += si[j] * lattice_u(a, si, k, v, mu, j);
          sg += shat[j] * g[j];
        }
        const float proj = ag * su;
        // gu_bar_j = (g_j - shat_j sg) / norm; beta = gu_bar.si; gdelta = gu_bar - beta si.
        float beta = 0.f;
        for (std::size_t j = 0; j < d; ++j) beta += (g[j] - shat[j] * sg) / norm * si[j];
        float gdu = 0.f, gus = 0.f;
        for (std::size_t j = 0; j < d; ++j) {
          const float gdelta = (g[j] - shat[j] * sg) / norm - beta * si[j];
          gdu += gdelta * lattice_u(a, si, k, v, mu, j);
          gus += ag * gdelta * si[j];
        }
        a.palpha[i * a.s + t] = gamma * gdu;
        const float gz = alpha * gdu * gamma * (1.f - gamma);
        for (std::size_t j = 0; j < d; ++j) {
          const float gu_bar = (g[j] - shat[j] * sg) / norm;
          const float gu = ag * (gu_bar - beta * si[j]);
          float gp = w[i] * gy[j] + gr * q[j] + (1.f - proj) * gu_bar - beta * ag * lattice_u(a, si, k, v, mu, j);
          switch (a.variant) {
            case LatticeWrite::decode: pv[j] += gu; break;
            case LatticeWrite::encode: pk[j] += gu; break;
            case LatticeWrite::similarity:
              pv[j] += gu - gus * si[j];
              gp += -mu * gu - gus * v[j];
              break;
          }
          gp += gz * k[j];
          pk[j] += gz * si[j];
          g[j] = gp;
        }
        return;
      }
      default: {  // gq_j = sum_i gr_i S_t[i][j]
        float acc = 0.f;
        for (std::size_t r = 0; r < m; ++r) acc += a.gr[r] * st[r * d + i];
        a.gq[t * d + i] = acc;
        return;
      }
    }
  }
};

}  // namespace gpu
