#include "nl/lattice_osr.hpp"

#include <algorithm>
#include <cmath>

#include "nl/dense.hpp"
#include "nl/lattice_read.hpp"
#include "nl/unit_norm.hpp"
#include "tape/float_pool.hpp"
#include "tape/ops/activation.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.
namespace {

// The write input u of one slot.
template <typename T>
void write_input(LatticeVariant variant, const T* slot, const T* k, const T* v, std::size_t d, T* u) {
  switch (variant) {
    case LatticeVariant::decode: std::copy(v, v + d, u); break;
    case LatticeVariant::encode: std::copy(k, k + d, u); break;
    case LatticeVariant::similarity: {
      const T mu = dense::dot(slot, v, d);
      for (std::size_t j = 0; j < d; ++j) u[j] = v[j] - mu * slot[j];
      break;
    }
  }
}

}  // namespace

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename LatticeOsr<T>::Cache> lattice_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename LatticeOsr<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = LatticeOsr<T>::kKind;
  const std::size_t d = cfg.d, m = cfg.m, n = m * d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.slots.start(s + 1, state0);
  c.w.resize(s * m), c.gamma.resize(s * m), c.norm.resize(s * m);
  out.y.resize(s * d);
  std::vector<T> u(d), un(d);
  for (std::size_t t = 0; t < s; ++t) {
    const T* st = c.slots.state(t);
    T* sn = c.slots.fill(t + 1);
    const T* k = &c.front.k[t * d];
    const T* v = &c.front.v[t * d];
    lattice::read(st, m, d, &c.front.q[t * d], &c.w[t * m], &out.y[t * d]);
    const T alpha = c.front.alpha[t];
    for (std::size_t i = 0; i < m; ++i) {
      const T* si = st + i * d;
      const T gamma = tape::ops::clamped_sigmoid(dense::dot(si, k, d));
      write_input(cfg.lattice_variant, si, k, v, d, u.data());
      const T ag = alpha * gamma;
      const T proj = ag * dense::dot(si, u.data(), d);  // p_i = S_t[i].delta_i
      for (std::size_t j = 0; j < d; ++j) un[j] = si[j] + ag * u[j] - proj * si[j];
      const T norm = sqrt(dense::dot(un.data(), un.data(), d));
      c.gamma[t * m + i] = gamma;
      c.norm[t * m + i] = norm;
      if (norm > T(kNormEps)) {
        for (std::size_t j = 0; j < d; ++j) sn[i * d + j] = un[j] / norm;
      } else {
        std::copy(si, si + d, sn + i * d);
      }
    }
  }
  out.final_state.assign(c.slots.state(s), c.slots.state(s) + n);
  c.slots.finish();
  return out;
}

}  // namespace

template <typename T>
auto LatticeOsr<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return lattice_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> lattice_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename LatticeOsr<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = LatticeOsr<T>::kKind;
  const std::size_t d = cfg.d, m = cfg.m, n = m * d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.slots.shape(s + 1, n);
  std::vector<T> gs(n, T(0)), gs_prev(n), u(d), gu_bar(d), gdelta(d), gu(d);
  for (std::size_t t = s; t-- > 0;) {
    const T* st = c.slots.state(t);
    const T* sn = c.slots.state(t + 1);
    const T* k = &c.front.k[t * d];
    const T* v = &c.front.v[t * d];
    T* gk = &g.k[t * d];
    T* gv = &g.v[t * d];
    std::fill(gs_prev.begin(), gs_prev.end(), T(0));
    lattice::read_backward(st, m, d, &c.front.q[t * d], &c.w[t * m], &gy[t * d], gs_prev.data(), &g.q[t * d]);
    const T alpha = c.front.alpha[t];
    T g_alpha = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const T* si = st + i * d;
      const T* gsi = &gs[i * d];
      T* gpi = &gs_prev[i * d];
      const T norm = c.norm[t * m + i];
      if (!(norm > T(kNormEps))) {  // slot kept as is: identity (O-7)
        dense::axpy(gpi, T(1), gsi, d);
        continue;
      }
      const T gamma = c.gamma[t * m + i];
      write_input(cfg.lattice_variant, si, k, v, d, u.data());
      const T ag = alpha * gamma;
      const T proj = ag * dense::dot(si, u.data(), d);
      const T* shat = sn + i * d;
      const T sg = dense::dot(shat, gsi, d);
      for (std::size_t j = 0; j < d; ++j) gu_bar[j] = (gsi[j] - shat[j] * sg) / norm;
      const T beta = dense::dot(gu_bar.data(), si, d);
      for (std::size_t j = 0; j < d; ++j) {
        gpi[j] += (T(1) - proj) * gu_bar[j] - beta * ag * u[j];
        gdelta[j] = gu_bar[j] - beta * si[j];
      }
      const T gdu = dense::dot(gdelta.data(), u.data(), d);
      g_alpha += gamma * gdu;
      const T g_gamma = alpha * gdu;
      for (std::size_t j = 0; j < d; ++j) gu[j] = ag * gdelta[j];
      switch (cfg.lattice_variant) {
        case LatticeVariant::decode: dense::axpy(gv, T(1), gu.data(), d); break;
        case LatticeVariant::encode: dense::axpy(gk, T(1), gu.data(), d); break;
        case LatticeVariant::similarity: {
          const T mu = dense::dot(si, v, d);
          const T gus = dense::dot(gu.data(), si, d);
          for (std::size_t j = 0; j < d; ++j) {
            gv[j] += gu[j] - gus * si[j];
            gpi[j] += -mu * gu[j] - gus * v[j];
          }
          break;
        }
      }
      const T gz = g_gamma * gamma * (T(1) - gamma);
      dense::axpy(gpi, gz, k, d);
      dense::axpy(gk, gz, si, d);
    }
    g.alpha[t] = g_alpha;
    gs.swap(gs_prev);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> LatticeOsr<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return lattice_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct LatticeOsr<float>;
template struct LatticeOsr<double>;
template struct LatticeOsr<Tracked32>;
template struct LatticeOsr<Tracked64>;

}  // namespace nl
