#pragma once
// The two-layer MLP memory shared by Moneta, YAAD and MEMORA (nltrain-math §6.5): the inner
// gradient MLPGRAD and its VJP (with the second-order silu'' term, O-5), and the read
// W2 silu(W1 q) with its VJP. W1 is d_h x d, W2 is d x d_h, both row-major.
#include <cstddef>
#include <vector>

#include "nl/attentional_bias.hpp"
#include "nl/dense.hpp"
#include "tape/ops/activation.hpp"

namespace nl::mlp {

using tape::ops::clamped_sigmoid;
using tape::ops::silu_derivative;
using tape::ops::silu_value;

template <typename T>
[[nodiscard]] inline T silu_second(T x) {
  const T s = clamped_sigmoid(x);
  return s * (T(1) - s) * (T(2) + x * (T(1) - T(2) * s));
}

struct Dims {
  std::size_t d_h, d;
};

// Forward part of MLPGRAD: a = W1 k, h = silu(a), e = W2 h - v (the per-token cache).
template <typename T>
inline void inner_forward(Dims n, const T* w1, const T* w2, const T* k, const T* v, T* a, T* h, T* e) {
  dense::matvec(w1, n.d_h, n.d, k, a);
  for (std::size_t i = 0; i < n.d_h; ++i) h[i] = silu_value(a[i]);
  dense::matvec(w2, n.d, n.d_h, h, e);
  for (std::size_t i = 0; i < n.d; ++i) e[i] -= v[i];
}

// G1 = c k^T, G2 = g h^T with g = psi(e), r = W2^T g, c = r * silu'(a), from the token cache.
template <typename T>
inline void inner_gradient(Dims n, const T* w2, const T* k, const T* a, const T* h, const T* e,
                           const AttentionalBias<T>& bias, T* g1, T* g2) {
  std::vector<T> g(n.d), r(n.d_h, T(0));
  for (std::size_t i = 0; i < n.d; ++i) g[i] = bias.psi(e[i]);
  dense::matvec_t_add(w2, n.d, n.d_h, g.data(), r.data());
  for (std::size_t i = 0; i < n.d_h; ++i) {
    const T c = r[i] * silu_derivative(a[i]);
    for (std::size_t j = 0; j < n.d; ++j) g1[i * n.d + j] = c * k[j];
  }
  for (std::size_t i = 0; i < n.d; ++i)
    for (std::size_t j = 0; j < n.d_h; ++j) g2[i * n.d_h + j] = g[i] * h[j];
}

// MLPGRAD_BWD: given gG1, gG2, adds into gW1, gW2 (adjoints of the pre-update state), gk, gv.
template <typename T>
inline void inner_gradient_backward(Dims n, const T* w1, const T* w2, const T* k, const T* a, const T* h,
                                    const T* e, const AttentionalBias<T>& bias, const T* gg1, const T* gg2, T* gw1,
                                    T* gw2, T* gk, T* gv) {
  std::vector<T> g(n.d), r(n.d_h, T(0));
  for (std::size_t i = 0; i < n.d; ++i) g[i] = bias.psi(e[i]);
  dense::matvec_t_add(w2, n.d, n.d_h, g.data(), r.data());
  std::vector<T> c(n.d_h), gc(n.d_h), gr(n.d_h), ga(n.d_h), gg(n.d), gh(n.d_h, T(0)), ge(n.d);
  for (std::size_t i = 0; i < n.d_h; ++i) c[i] = r[i] * silu_derivative(a[i]);
  dense::matvec(gg1, n.d_h, n.d, k, gc.data());
  dense::matvec_t_add(gg1, n.d_h, n.d, c.data(), gk);
  dense::matvec(gg2, n.d, n.d_h, h, gg.data());
  dense::matvec_t_add(gg2, n.d, n.d_h, g.data(), gh.data());
  for (std::size_t i = 0; i < n.d_h; ++i) {
    gr[i] = gc[i] * silu_derivative(a[i]);
    ga[i] = gc[i] * r[i] * silu_second(a[i]);
  }
  dense::add_outer(gw2, n.d, n.d_h, T(1), g.data(), gr.data());
  for (std::size_t i = 0; i < n.d; ++i) gg[i] += dense::dot(w2 + i * n.d_h, gr.data(), n.d_h);
  for (std::size_t i = 0; i < n.d; ++i) {
    ge[i] = gg[i] * bias.dpsi(e[i]);
    gv[i] -= ge[i];
  }
  dense::add_outer(gw2, n.d, n.d_h, T(1), ge.data(), h);
  dense::matvec_t_add(w2, n.d, n.d_h, ge.data(), gh.data());
  for (std::size_t i = 0; i < n.d_h; ++i) ga[i] += gh[i] * silu_derivative(a[i]);
  dense::add_outer(gw1, n.d_h, n.d, T(1), ga.data(), k);
  dense::matvec_t_add(w1, n.d_h, n.d, ga.data(), gk);
}

// READ: y = W2 silu(W1 q); keeps aq = W1 q.
template <typename T>
inline void read(Dims n, const T* w1, const T* w2, const T* q, T* aq, T* y) {
  dense::matvec(w1, n.d_h, n.d, q, aq);
  std::vector<T> hq(n.d_h);
  for (std::size_t i = 0; i < n.d_h; ++i) hq[i] = silu_value(aq[i]);
  dense::matvec(w2, n.d, n.d_h, hq.data(), y);
}

// READ VJP: gq += W1^T ((W2^T gy) * silu'(aq)); with gw1/gw2 non-null also the state adjoints.
template <typename T>
inline void read_backward(Dims n, const T* w1, const T* w2, const T* q, const T* aq, const T* gy, T* gw1, T* gw2,
                          T* gq) {
  std::vector<T> gaq(n.d_h, T(0));
  dense::matvec_t_add(w2, n.d, n.d_h, gy, gaq.data());
  if (gw2 != nullptr) {
    std::vector<T> hq(n.d_h);
    for (std::size_t i = 0; i < n.d_h; ++i) hq[i] = silu_value(aq[i]);
    dense::add_outer(gw2, n.d, n.d_h, T(1), gy, hq.data());
  }
  for (std::size_t i = 0; i < n.d_h; ++i) gaq[i] *= silu_derivative(aq[i]);
  if (gw1 != nullptr) dense::add_outer(gw1, n.d_h, n.d, T(1), gaq.data(), q);
  dense::matvec_t_add(w1, n.d_h, n.d, gaq.data(), gq);
}

}  // namespace nl::mlp
