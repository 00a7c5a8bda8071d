#pragma once
// Kernel bodies for sliding-window attention (nltrain-math §4). Forward and the query half of the
// backward run over (head, query) pairs; the key/value half runs over (head, key) pairs and
// gathers from the queries whose window holds the key, so no two threads write one entry.
#include <cmath>
#include <cstddef>

#include "gpu/hd.hpp"

namespace gpu {

struct SwaArgs {
  std::size_t s, d, heads, window;
  const float *q, *k, *v;  // s x d
  float* p;                // heads x s x window (forward writes; backward reads)
  float* a;                // s x d (forward)
  const float* ga;         // s x d (backward)
  float* gscore;           // heads x s x window: the adjoint of the pre-softmax scores (scaled)
  float *gq, *gk, *gv;     // s x d (backward)
};

GPU_HD inline std::size_t swa_first_key(std::size_t i, std::size_t window) {
  return i + 1 >= window ? i + 1 - window : 0;
}

struct SwaForwardBody {
  using Args = SwaArgs;
  GPU_HD static void run(const Args& a, std::size_t idx) {
    const std::size_t h = idx / a.s, i = idx % a.s, hd = a.d / a.heads, off = h * hd, W = a.window;
    const float scale = 1.f / sqrtf(static_cast<float>(hd));
    const std::size_t j0 = swa_first_key(i, W);
    float* p = a.p + (h * a.s + i) * W;
    for (std::size_t w = 0; w < W; ++w) p[w] = 0.f;
    float mx = 0.f;
    for (std::size_t j = j0; j <= i; ++j) {
      float dot = 0.f;
      for (std::size_t c = 0; c < hd; ++c) dot += a.q[i * a.d + off + c] * a.k[j * a.d + off + c];
      p[j - j0] = dot * scale;
      mx = (j == j0 || p[j - j0] > mx) ? p[j - j0] : mx;
    }
    float sum = 0.f;
    for (std::size_t j = j0; j <= i; ++j) sum += (p[j - j0] = expf(p[j - j0] - mx));
    float* out = a.a + i * a.d + off;
    for (std::size_t c = 0; c < hd; ++c) out[c] = 0.f;
    for (std::size_t j = j0; j <= i; ++j) {
      p[j - j0] /= sum;
      for (std::size_t c = 0; c < hd; ++c) out[c] += p[j - j0] * a.v[j * a.d + off + c];
    }
  }
};

struct SwaBackwardQueryBody {
  using Args = SwaArgs;
  GPU_HD static void run(const Args& a, std::size_t idx) {
    const std::size_t h = idx / a.s, i = idx % a.s, hd = a.d / a.heads, off = h * hd, W = a.window;
    const float scale = 1.f / sqrtf(static_cast<float>(hd));
    const std::size_t j0 = swa_first_key(i, W);
    const float* p = a.p + (h * a.s + i) * W;
    float* gsc = a.gscore + (h * a.s + i) * W;
    const float* gai = a.ga + i * a.d + off;
    float pgp = 0.f;
    for (std::size_t j = j0; j <= i; ++j) {
      float gp = 0.f;
      for (std::size_t c = 0; c < hd; ++c) gp += gai[c] * a.v[j * a.d + off + c];
      gsc[j - j0] = gp;
      pgp += p[j - j0] * gp;
    }
    float* gq = a.gq + i * a.d + off;
    for (std::size_t c = 0; c < hd; ++c) gq[c] = 0.f;
    for (std::size_t j = j0; j <= i; ++j) {
      const float g = p[j - j0] * (gsc[j - j0] - pgp) * scale;
      gsc[j - j0] = g;
      for (std::size_t c = 0; c < hd; ++c) gq[c] += g * a.k[j * a.d + off + c];
    }
  }
};

struct SwaBackwardKeyBody {
  using Args = SwaArgs;
  GPU_HD static void run(const Args& a, std::size_t idx) {
    const std::size_t h = idx / a.s, j = idx % a.s, hd = a.d / a.heads, off = h * hd, W = a.window;
    float* gk = a.gk + j * a.d + off;
    float* gv = a.gv + j * a.d + off;
    for (std::size_t c = 0; c < hd; ++c) gk[c] = gv[c] = 0.f;
    const std::size_t last = j + W - 1 < a.s ? j + W - 1 : a.s - 1;
    for (std::size_t i = j; i <= last; ++i) {
      const std::size_t w = (h * a.s + i) * W + (j - swa_first_key(i, W));
      const float g = a.gscore[w], p = a.p[w];
      for (std::size_t c = 0; c < hd; ++c) {
        gk[c] += g * a.q[i * a.d + off + c];
        gv[c] += p * a.ga[i * a.d + off + c];
      }
    }
  }
};

}  // namespace gpu
