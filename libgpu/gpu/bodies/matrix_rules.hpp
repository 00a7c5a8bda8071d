#pragma once
// Kernel bodies for the matrix-memory rules (nltrain-math §6.1-6.4): DeltaRule, TitansLMM,
// HebbianRule and AtlasOmega. The index space is the memory's rows: row i of M_{t+1} depends on
// row i of M_t (and S_t) and on k_t, v_t[i], q_t and the gates only, so one thread owns one row
// through the whole chunk, forward and backward. What crosses rows in the backward (the adjoints
// of k_t, q_t and the gates) goes to per-row partial buffers, summed by ReduceRows in a fixed
// row order, so results do not depend on the launcher or on thread scheduling.
#include <cstddef>

#include "gpu/hd.hpp"

namespace gpu {

enum class MatrixRule : int { delta = 0, titans = 1, hebbian = 2, atlas = 3 };

GPU_HD inline bool has_momentum(MatrixRule r) { return r == MatrixRule::titans || r == MatrixRule::atlas; }

GPU_HD inline float row_dot(const float* a, const float* b, std::size_t n) {
  float acc = 0.f;
  for (std::size_t j = 0; j < n; ++j) acc += a[j] * b[j];
  return acc;
}

struct MatrixForwardArgs {
  MatrixRule rule;
  std::size_t s, d;
  const float *k, *v, *q;             // s x d (normalized where the rule normalizes)
  const float *alpha, *theta, *eta;   // s
  const float* drive;                 // atlas: s x d, omega_t = W_omega silu([k;v]); else unused
  float* m;                           // (s+1) x d x d; M_0 on entry
  float* sm;                          // momentum rules: (s+1) x d x d, S_0 = 0 on entry
  float* e;                           // s x d: delta's M_t k_t - v_t, the momentum rules' drive a_t
  float* y;                           // s x d
};

struct MatrixForward {
  using Args = MatrixForwardArgs;
  GPU_HD static void run(const Args& a, std::size_t i) {
    const std::size_t d = a.d, dd = d * d;
    for (std::size_t t = 0; t < a.s; ++t) {
      const float* m = a.m + t * dd + i * d;
      float* mn = a.m + (t + 1) * dd + i * d;
      const float* k = a.k + t * d;
      const float retain = 1.f - a.alpha[t], th = a.theta[t];
      switch (a.rule) {
        case MatrixRule::delta: {
          const float e = row_dot(m, k, d) - a.v[t * d + i];
          a.e[t * d + i] = e;
          for (std::size_t j = 0; j < d; ++j) mn[j] = retain * m[j] - th * e * k[j];
          break;
        }
        case MatrixRule::hebbian: {
          const float vi = a.v[t * d + i];
          for (std::size_t j = 0; j < d; ++j) mn[j] = retain * m[j] + vi * k[j];
          break;
        }
        case MatrixRule::titans:
        case MatrixRule::atlas: {
          const float drive = a.rule == MatrixRule::titans ? row_dot(m, k, d) - a.v[t * d + i] : a.drive[t * d + i];
          a.e[t * d + i] = drive;
          const float* sp = a.sm + t * dd + i * d;
          float* sn = a.sm + (t + 1) * dd + i * d;
          const float eta = a.eta[t];
          for (std::size_t j = 0; j < d; ++j) {
            sn[j] = eta * sp[j] - th * drive * k[j];
            mn[j] = retain * m[j] + sn[j];
          }
          break;
        }
      }
      a.y[t * d + i] = row_dot(mn, a.q + t * d, d);
    }
  }
};

struct MatrixBackwardArgs {
  MatrixRule rule;
  std::size_t s, d;
  const float *k, *v, *q, *alpha, *theta, *eta;
  const float *m, *sm, *e;  // the forward's trajectories
  const float* gy;          // s x d
  float *gm, *gs;           // d x d scratch, zero on entry (the adjoints of M and S being carried)
  float *pk, *pq;           // d x s x d: row i's share of the adjoints of k_t and q_t
  float *palpha, *ptheta, *peta;  // d x s
  float* gv;                // s x d: the adjoint of v (atlas: of the drive omega_t)
};

struct MatrixBackward {
  using Args = MatrixBackwardArgs;
  GPU_HD static void run(const Args& a, std::size_t i) {
    const std::size_t d = a.d, dd = d * d, s = a.s;
    float* gm = a.gm + i * d;
    float* gs = a.gs + i * d;
    for (std::size_t t = s; t-- > 0;) {
      const float* m = a.m + t * dd + i * d;
      const float* mn = a.m + (t + 1) * dd + i * d;
      const float* k = a.k + t * d;
      const float* q = a.q + t * d;
      float* pk = a.pk + (i * s + t) * d;
      float* pq = a.pq + (i * s + t) * d;
      const float gyi = a.gy[t * d + i];
      const float alpha = a.alpha[t], th = a.theta[t];
      for (std::size_t j = 0; j < d; ++j) {
        gm[j] += gyi * q[j];
        pq[j] = mn[j] * gyi;
      }
      a.palpha[i * s + t] = -row_dot(gm, m, d);
      switch (a.rule) {
        case MatrixRule::delta: {
          const float e = a.e[t * d + i];
          const float gmk = row_dot(gm, k, d);
          a.ptheta[i * s + t] = -e * gmk;
          const float ge = -th * gmk;
          a.gv[t * d + i] = -ge;
          for (std::size_t j = 0; j < d; ++j) {
            pk[j] = -th * e * gm[j] + ge * m[j];
            gm[j] = (1.f - alpha) * gm[j] + ge * k[j];
          }
          break;
        }
        case MatrixRule::hebbian: {
          const float vi = a.v[t * d + i];
          a.gv[t * d + i] = row_dot(gm, k, d);
          for (std::size_t j = 0; j < d; ++j) {
            pk[j] = gm[j] * vi;
            gm[j] *= 1.f - alpha;
          }
          break;
        }
        case MatrixRule::titans:
        case MatrixRule::atlas: {
          const float* sp = a.sm + t * dd + i * d;
          const float drive = a.e[t * d + i], eta = a.eta[t];
          for (std::size_t j = 0; j < d; ++j) gs[j] += gm[j];
          a.peta[i * s + t] = row_dot(gs, sp, d);
          const float gsk = row_dot(gs, k, d);
          a.ptheta[i * s + t] = -drive * gsk;
          const float ga = -th * gsk;
          const bool titans = a.rule == MatrixRule::titans;
          a.gv[t * d + i] = titans ? -ga : ga;  // Titans: drive = M k - v; Atlas: the drive's own adjoint
          for (std::size_t j = 0; j < d; ++j) {
            pk[j] = -th * drive * gs[j] + (titans ? ga * m[j] : 0.f);
            gm[j] = (1.f - alpha) * gm[j] + (titans ? ga * k[j] : 0.f);
            gs[j] *= eta;
          }
          break;
        }
      }
    }
  }
};

// out[j] = sum over r of parts[r * n + j], r in order: the fixed-order sum of row partials. In
// float for the rules' adjoints; in double for the global gradient norm's partials (adamw.hpp).
template <typename T>
struct BasicReduceRowsArgs {
  const T* parts;
  std::size_t rows, n;
  T* out;
};
using ReduceRowsArgs = BasicReduceRowsArgs<float>;

template <typename T>
struct BasicReduceRows {
  using Args = BasicReduceRowsArgs<T>;
  GPU_HD static void run(const Args& a, std::size_t j) {
    T acc = 0;
    for (std::size_t r = 0; r < a.rows; ++r) acc += a.parts[r * a.n + j];
    a.out[j] = acc;
  }
};
using ReduceRows = BasicReduceRows<float>;
using ReduceRowsF64 = BasicReduceRows<double>;

}  // namespace gpu
