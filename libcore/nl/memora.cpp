#include "nl/memora.hpp"

#include <algorithm>
#include <cmath>

#include "nl/attentional_bias.hpp"
#include "nl/dense.hpp"
#include "nl/mlp_memory.hpp"
#include "tape/float_pool.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.
namespace {

constexpr double kLogFloor = 1e-8;

template <typename T>
T clamped_log(T w) {
  return log(max(w, T(kLogFloor)));
}

// Row lengths of the state: W1 has d_h rows of d, W2 has d rows of d_h.
template <typename F>
void for_each_row(std::size_t d, std::size_t dh, F&& f) {
  for (std::size_t r = 0; r < dh; ++r) f(r * d, d);
  for (std::size_t r = 0; r < d; ++r) f(dh * d + r * dh, dh);
}

}  // namespace

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename Memora<T>::Cache> memora_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename Memora<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = Memora<T>::kKind;
  const std::size_t d = cfg.d, dh = cfg.d_h, n1 = dh * d, n = 2 * n1;
  const mlp::Dims dims{dh, d};
  const auto bias = AttentionalBias<T>::for_rule(kKind, cfg);
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.w.start(s + 1, state0);
  c.a.resize(s * dh), c.h.resize(s * dh), c.e.resize(s * d), c.aq.resize(s * dh);
  out.y.resize(s * d);
  std::vector<T> grad(n);
  for (std::size_t t = 0; t < s; ++t) {
    const T* w = c.w.state(t);
    T* wn = c.w.fill(t + 1);
    const T* kt = &c.front.k[t * d];
    T *a = &c.a[t * dh], *h = &c.h[t * dh], *e = &c.e[t * d];
    mlp::read(dims, w, w + n1, &c.front.q[t * d], &c.aq[t * dh], &out.y[t * d]);
    mlp::inner_forward(dims, w, w + n1, kt, &c.front.v[t * d], a, h, e);
    mlp::inner_gradient(dims, w + n1, kt, a, h, e, bias, grad.data(), grad.data() + n1);
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    for_each_row(d, dh, [&](std::size_t off, std::size_t len) {
      T mx = 0;
      for (std::size_t j = 0; j < len; ++j) {
        wn[off + j] = alpha * clamped_log(w[off + j]) - th * grad[off + j];
        mx = j == 0 ? wn[off + j] : max(mx, wn[off + j]);  // max(): no branch for the audit scalar to doubt
      }
      T sum = 0;
      for (std::size_t j = 0; j < len; ++j) sum += (wn[off + j] = exp(wn[off + j] - mx));
      for (std::size_t j = 0; j < len; ++j) wn[off + j] /= sum;
    });
  }
  out.final_state.assign(c.w.state(s), c.w.state(s) + n);
  c.w.finish();
  return out;
}

}  // namespace

template <typename T>
auto Memora<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return memora_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> memora_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename Memora<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = Memora<T>::kKind;
  const std::size_t d = cfg.d, dh = cfg.d_h, n1 = dh * d, n = 2 * n1;
  const mlp::Dims dims{dh, d};
  const auto bias = AttentionalBias<T>::for_rule(kKind, cfg);
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.w.shape(s + 1, n);
  std::vector<T> gw(n, T(0)), gw_prev(n), gz(n), grad(n), gg(n);
  for (std::size_t t = s; t-- > 0;) {
    const T* w = c.w.state(t);
    const T* wn = c.w.state(t + 1);
    const T* kt = &c.front.k[t * d];
    const T *a = &c.a[t * dh], *h = &c.h[t * dh], *e = &c.e[t * d];
    for_each_row(d, dh, [&](std::size_t off, std::size_t len) {
      const T dotp = dense::dot(wn + off, gw.data() + off, len);
      for (std::size_t j = 0; j < len; ++j) gz[off + j] = wn[off + j] * (gw[off + j] - dotp);
    });
    mlp::inner_gradient(dims, w + n1, kt, a, h, e, bias, grad.data(), grad.data() + n1);
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    T g_alpha = 0, g_theta = 0;
    for (std::size_t i = 0; i < n; ++i) {
      g_alpha += gz[i] * clamped_log(w[i]);
      g_theta -= gz[i] * grad[i];
      gw_prev[i] = w[i] > T(kLogFloor) ? alpha * gz[i] / w[i] : T(0);
      gg[i] = -th * gz[i];
    }
    g.alpha[t] = g_alpha;
    g.theta[t] = g_theta;
    mlp::inner_gradient_backward(dims, w, w + n1, kt, a, h, e, bias, gg.data(), gg.data() + n1, gw_prev.data(),
                                 gw_prev.data() + n1, &g.k[t * d], &g.v[t * d]);
    mlp::read_backward(dims, w, w + n1, &c.front.q[t * d], &c.aq[t * dh], &gy[t * d], gw_prev.data(),
                       gw_prev.data() + n1, &g.q[t * d]);
    gw.swap(gw_prev);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> Memora<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return memora_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct Memora<float>;
template struct Memora<double>;
template struct Memora<Tracked32>;
template struct Memora<Tracked64>;

}  // namespace nl
