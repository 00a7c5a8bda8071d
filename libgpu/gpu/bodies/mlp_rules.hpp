#pragma once
// Kernel bodies for the MLP-memory rules (nltrain-math §6.5-6.8): Moneta, YAAD (L2-type
// retention, read after write) and MEMORA (KL retention: row softmax, read before write).
//
// One token's inner step is a chain of small dependent products (a = W1 k, e = W2 h - v,
// r = W2^T psi(e), the update, the read), so these are phased bodies: for each step the launcher
// runs phase 0 over its index space, then phase 1, ... with a barrier between phases (the CUDA
// launcher: one thread block looping over the steps, __syncthreads between phases; the CPU
// launcher: plain loops). Each phase's index space is a row range: the hidden units (d_h), the
// outputs (d), or the rows of the state (d_h rows of W1, then d rows of W2). Every entry is
// written by exactly one index, so results do not depend on the launcher.
#include <cstddef>

#include "gpu/bodies/activations.hpp"
#include "gpu/hd.hpp"

namespace gpu {

enum class MlpRule : int { moneta = 0, yaad = 1, memora = 2 };

struct MlpArgs {
  MlpRule rule;
  Bias bias;
  std::size_t s, d, dh;
  float lambda_loc2, lambda_22;  // 2 lambda_loc (YAAD only), 2 lambda_2 (Moneta, YAAD)
  const float *k, *v, *q, *alpha, *theta;  // s x d, s
  float* w;                 // (s+1) x n, n = 2 d_h d: W1 (d_h x d) then W2 (d x d_h); W_0 on entry
  float *a, *h, *aq, *r, *c;  // s x d_h: W1 k, silu(a), the read's W1 q, W2^T psi(e), r silu'(a)
  float* e;                 // s x d: W2 h - v
  float* y;                 // s x d
  // Backward only.
  const float* gy;                     // s x d
  float *gw, *gz;                      // n: the adjoint of W_{t+1} (carried), of the update's output
  float *gaq, *gc, *gr, *ga, *gh;      // d_h
  float *ggv, *ge;                     // d
  float *gk, *gv, *gq;                 // s x d
  float *palpha, *ptheta;              // (d_h + d) x s: each state row's share of the gate adjoints

  GPU_HD std::size_t n1() const { return dh * d; }
  GPU_HD std::size_t n() const { return 2 * dh * d; }
  GPU_HD std::size_t rows() const { return dh + d; }
  // State row `row` (W1's rows first): its offset in a state and its length.
  GPU_HD std::size_t row_off(std::size_t row) const { return row < dh ? row * d : n1() + (row - dh) * dh; }
  GPU_HD std::size_t row_len(std::size_t row) const { return row < dh ? d : dh; }
  GPU_HD bool read_first() const { return rule == MlpRule::memora; }
};

GPU_HD inline float mlp_log(float w) { return logf(w > 1e-8f ? w : 1e-8f); }

// The inner gradient's entry `j` of state row `row`: G1[j][:] = c k, G2[i][:] = psi(e_i) h.
GPU_HD inline float mlp_grad(const MlpArgs& a, std::size_t t, std::size_t row, std::size_t j) {
  if (row < a.dh) return a.c[t * a.dh + row] * a.k[t * a.d + j];
  const std::size_t i = row - a.dh;
  return a.bias.psi(a.e[t * a.d + i]) * a.h[t * a.dh + j];
}

// The L2 rules' retention term R (nltrain-math §6.6-6.7), entry `idx` of the state.
GPU_HD inline float mlp_l2_retention(const MlpArgs& a, const float* w, std::size_t idx) {
  return a.lambda_loc2 * (w[idx] - a.w[idx]) + a.lambda_22 * w[idx];
}

struct MlpForward {
  using Args = MlpArgs;
  static constexpr int kPhases = 6;
  GPU_HD static std::size_t width(const Args& a, int phase) {
    switch (phase) {
      case 0: return a.dh;
      case 1: return a.d;
      case 2: return a.dh;
      case 3: return a.rows();
      case 4: return a.read_first() ? 0 : a.dh;
      default: return a.read_first() ? 0 : a.d;
    }
  }
  GPU_HD static void run(const Args& a, std::size_t t, int phase, std::size_t i) {
    const std::size_t d = a.d, dh = a.dh, n = a.n();
    const float* w = a.w + t * n;
    float* wn = a.w + (t + 1) * n;
    const float* w2 = w + a.n1();
    const float* k = a.k + t * d;
    const float* q = a.q + t * d;
    switch (phase) {
      case 0: {  // a = W1 k, h = silu(a); MEMORA reads W_t here
        const float ai = row_dot(w + i * d, k, d);
        a.a[t * dh + i] = ai;
        a.h[t * dh + i] = silu(ai);
        if (a.read_first()) a.aq[t * dh + i] = row_dot(w + i * d, q, d);
        return;
      }
      case 1: {  // e = W2 h - v; MEMORA's y = W2_t silu(aq)
        float acc = 0.f, acc_y = 0.f;
        for (std::size_t j = 0; j < dh; ++j) {
          acc += w2[i * dh + j] * a.h[t * dh + j];
          if (a.read_first()) acc_y += w2[i * dh + j] * silu(a.aq[t * dh + j]);
        }
        a.e[t * d + i] = acc - a.v[t * d + i];
        if (a.read_first()) a.y[t * d + i] = acc_y;
        return;
      }
      case 2: {  // r = W2^T psi(e), c = r silu'(a)
        float acc = 0.f;
        for (std::size_t m = 0; m < d; ++m) acc += w2[m * dh + i] * a.bias.psi(a.e[t * d + m]);
        a.r[t * dh + i] = acc;
        a.c[t * dh + i] = acc * silu_d1(a.a[t * dh + i]);
        return;
      }
      case 3: {  // the update of state row i
        const std::size_t off = a.row_off(i), len = a.row_len(i);
        const float alpha = a.alpha[t], th = a.theta[t];
        if (a.rule == MlpRule::memora) {
          float mx = 0.f;
          for (std::size_t j = 0; j < len; ++j) {
            const float z = alpha * mlp_log(w[off + j]) - th * mlp_grad(a, t, i, j);
            wn[off + j] = z;
            mx = (j == 0 || z > mx) ? z : mx;
          }
          float sum = 0.f;
          for (std::size_t j = 0; j < len; ++j) sum += (wn[off + j] = expf(wn[off + j] - mx));
          for (std::size_t j = 0; j < len; ++j) wn[off + j] /= sum;
        } else {
          for (std::size_t j = 0; j < len; ++j) {
            wn[off + j] = alpha * w[off + j] - th * (mlp_grad(a, t, i, j) + mlp_l2_retention(a, w, off + j));
          }
        }
        return;
      }
      case 4:  // the read after the write: aq = W1_{t+1} q
        a.aq[t * dh + i] = row_dot(wn + i * d, q, d);
        return;
      default: {  // y = W2_{t+1} silu(aq)
        float acc = 0.f;
        for (std::size_t j = 0; j < dh; ++j) acc += wn[a.n1() + i * dh + j] * silu(a.aq[t * dh + j]);
        a.y[t * d + i] = acc;
        return;
      }
    }
  }
};

// Backward, steps in reverse (step 0 is token s-1). gw carries the adjoint of W_{t+1} in and that
// of W_t out; gk, gv, gq and the gate partials are written, not accumulated.
struct MlpBackward {
  using Args = MlpArgs;
  static constexpr int kPhases = 7;
  GPU_HD static std::size_t width(const Args& a, int phase) {
    switch (phase) {
      case 0: return a.read_first() ? 0 : a.dh;
      case 1: return a.rows();
      case 2: return a.dh;
      case 3: return a.d;
      case 4: return a.dh;
      case 5: return a.d;
      default: return a.rows();
    }
  }
  GPU_HD static void run(const Args& a, std::size_t step, int phase, std::size_t i) {
    const std::size_t t = a.s - 1 - step;
    const std::size_t d = a.d, dh = a.dh, n = a.n(), n1 = a.n1();
    const float* w = a.w + t * n;
    const float* wn = a.w + (t + 1) * n;
    const float* wr = a.read_first() ? w : wn;  // the state the read saw
    const float* w2 = w + n1;
    const float* k = a.k + t * d;
    const float* q = a.q + t * d;
    const float* gy = a.gy + t * d;
    const float th = a.theta[t], alpha = a.alpha[t];
    switch (phase) {
      case 0: {  // L2 rules: the read's adjoint of aq, from W_{t+1}
        float acc = 0.f;
        for (std::size_t m = 0; m < d; ++m) acc += wn[n1 + m * dh + i] * gy[m];
        a.gaq[i] = acc * silu_d1(a.aq[t * dh + i]);
        return;
      }
      case 1: {  // state row i: the update's output adjoint gz, the gate partials, gc / ggv
        const std::size_t off = a.row_off(i), len = a.row_len(i);
        if (a.rule == MlpRule::memora) {
          float dot = 0.f;
          for (std::size_t j = 0; j < len; ++j) dot += wn[off + j] * a.gw[off + j];
          for (std::size_t j = 0; j < len; ++j) a.gz[off + j] = wn[off + j] * (a.gw[off + j] - dot);
        } else {
          for (std::size_t j = 0; j < len; ++j) {  // the read's share of W_{t+1}'s adjoint first
            const float add = i < dh ? a.gaq[i] * q[j] : gy[i - dh] * silu(a.aq[t * dh + j]);
            a.gz[off + j] = a.gw[off + j] + add;
          }
        }
        float pa = 0.f, pt = 0.f, gdot = 0.f;
        for (std::size_t j = 0; j < len; ++j) {
          const float gz = a.gz[off + j];
          const float g = mlp_grad(a, t, i, j);
          if (a.rule == MlpRule::memora) {
            pa += gz * mlp_log(w[off + j]);
            pt -= gz * g;
          } else {
            pa += gz * w[off + j];
            pt -= gz * (g + mlp_l2_retention(a, w, off + j));
          }
          gdot += -th * gz * (i < dh ? k[j] : a.h[t * dh + j]);
        }
        a.palpha[i * a.s + t] = pa;
        a.ptheta[i * a.s + t] = pt;
        if (i < dh) a.gc[i] = gdot;  // gc = gG1 k with gG1 = -theta gz1
        else a.ggv[i - dh] = gdot;   // gg = gG2 h
        return;
      }
      case 2: {  // gr, ga (the silu'' term), gh = gG2^T psi(e); MEMORA's read adjoint of aq
        const float ai = a.a[t * dh + i];
        a.gr[i] = a.gc[i] * silu_d1(ai);
        a.ga[i] = a.gc[i] * a.r[t * dh + i] * silu_d2(ai);
        float acc = 0.f;
        for (std::size_t m = 0; m < d; ++m) acc += -th * a.gz[n1 + m * dh + i] * a.bias.psi(a.e[t * d + m]);
        a.gh[i] = acc;
        if (a.read_first()) {
          float acc_y = 0.f;
          for (std::size_t m = 0; m < d; ++m) acc_y += w2[m * dh + i] * gy[m];
          a.gaq[i] = acc_y * silu_d1(a.aq[t * dh + i]);
        }
        return;
      }
      case 3: {  // output unit i: ge, gv; the read's gq
        const float gg = a.ggv[i] + row_dot(w2 + i * dh, a.gr, dh);
        const float ge = gg * a.bias.dpsi(a.e[t * d + i]);
        a.ge[i] = ge;
        a.gv[t * d + i] = -ge;
        float acc = 0.f;
        for (std::size_t j = 0; j < dh; ++j) acc += wr[j * d + i] * a.gaq[j];
        a.gq[t * d + i] = acc;
        return;
      }
      case 4: {  // gh += W2^T ge; ga += gh silu'(a)
        float acc = a.gh[i];
        for (std::size_t m = 0; m < d; ++m) acc += w2[m * dh + i] * a.ge[m];
        a.ga[i] += acc * silu_d1(a.a[t * dh + i]);
        return;
      }
      case 5: {  // gk = gG1^T c + W1^T ga
        float acc = 0.f;
        for (std::size_t j = 0; j < dh; ++j) acc += -th * a.gz[j * d + i] * a.c[t * dh + j] + w[j * d + i] * a.ga[j];
        a.gk[t * d + i] = acc;
        return;
      }
      default: {  // state row i: the adjoint of W_t
        const std::size_t off = a.row_off(i), len = a.row_len(i);
        const float rho = alpha - th * (a.lambda_loc2 + a.lambda_22);
        for (std::size_t j = 0; j < len; ++j) {
          const float gz = a.gz[off + j];
          float g;
          if (a.rule == MlpRule::memora) {
            g = w[off + j] > 1e-8f ? alpha * gz / w[off + j] : 0.f;
            g += i < dh ? a.gaq[i] * q[j] : gy[i - dh] * silu(a.aq[t * dh + j]);  // the read saw W_t
          } else {
            g = rho * gz;
          }
          g += i < dh ? a.ga[i] * k[j] : a.bias.psi(a.e[t * d + (i - dh)]) * a.gr[j] + a.ge[i - dh] * a.h[t * dh + j];
          a.gw[off + j] = g;
        }
        return;
      }
    }
  }
};

}  // namespace gpu
