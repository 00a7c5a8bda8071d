#include "nl/mlp_l2_rule.hpp"

#include <algorithm>

#include "nl/attentional_bias.hpp"
#include "nl/dense.hpp"
#include "nl/mlp_memory.hpp"
#include "tape/float_pool.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.
namespace {

template <typename T>
struct Constants {
  T lambda_loc2, lambda_22;  // 2 lambda_loc, 2 lambda_2
};

template <typename T, RuleKind K>
Constants<T> constants(const RuleConfig& cfg) {
  return {K == RuleKind::yaad ? T(2) * static_cast<T>(cfg.lambda_loc) : T(0), T(2) * static_cast<T>(cfg.lambda_2)};
}

}  // namespace

namespace {

template <typename T, RuleKind K>
NL_VECTOR_CLONES ChunkForward<T, typename MlpL2Rule<T, K>::Cache> mlp_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename MlpL2Rule<T, K>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = MlpL2Rule<T, K>::kKind;
  const std::size_t d = cfg.d, dh = cfg.d_h, n1 = dh * d, n = 2 * n1;
  const mlp::Dims dims{dh, d};
  const auto bias = AttentionalBias<T>::for_rule(K, cfg);
  const Constants<T> k = constants<T, K>(cfg);
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.w.start(s + 1, state0);
  const T* w0 = c.w.first();
  c.a.resize(s * dh), c.h.resize(s * dh), c.e.resize(s * d), c.aq.resize(s * dh);
  out.y.resize(s * d);
  std::vector<T> grad(n);  // G1 then G2
  for (std::size_t t = 0; t < s; ++t) {
    const T* w = c.w.state(t);
    T* wn = c.w.fill(t + 1);
    const T* kt = &c.front.k[t * d];
    T *a = &c.a[t * dh], *h = &c.h[t * dh], *e = &c.e[t * d];
    mlp::inner_forward(dims, w, w + n1, kt, &c.front.v[t * d], a, h, e);
    mlp::inner_gradient(dims, w + n1, kt, a, h, e, bias, grad.data(), grad.data() + n1);
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    for (std::size_t i = 0; i < n; ++i) {
      const T r = k.lambda_loc2 * (w[i] - w0[i]) + k.lambda_22 * w[i];
      wn[i] = alpha * w[i] - th * (grad[i] + r);
    }
    mlp::read(dims, wn, wn + n1, &c.front.q[t * d], &c.aq[t * dh], &out.y[t * d]);
  }
  out.final_state.assign(c.w.state(s), c.w.state(s) + n);
  c.w.finish();
  return out;
}

}  // namespace

template <typename T, RuleKind K>
auto MlpL2Rule<T, K>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return mlp_forward_body<T, K>(cfg, s, x, p, state0);
}

namespace {

template <typename T, RuleKind K>
NL_VECTOR_CLONES ChunkGrads<T> mlp_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename MlpL2Rule<T, K>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = MlpL2Rule<T, K>::kKind;
  const std::size_t d = cfg.d, dh = cfg.d_h, n1 = dh * d, n = 2 * n1;
  const mlp::Dims dims{dh, d};
  const auto bias = AttentionalBias<T>::for_rule(K, cfg);
  const Constants<T> k = constants<T, K>(cfg);
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.w.shape(s + 1, n);
  std::vector<T> gw(n, T(0)), gw_prev(n), grad(n), gg(n);
  const T* w0 = c.w.first();
  for (std::size_t t = s; t-- > 0;) {
    const T* w = c.w.state(t);
    const T* wn = c.w.state(t + 1);
    const T* kt = &c.front.k[t * d];
    const T *a = &c.a[t * dh], *h = &c.h[t * dh], *e = &c.e[t * d];
    mlp::read_backward(dims, wn, wn + n1, &c.front.q[t * d], &c.aq[t * dh], &gy[t * d], gw.data(), gw.data() + n1,
                       &g.q[t * d]);
    mlp::inner_gradient(dims, w + n1, kt, a, h, e, bias, grad.data(), grad.data() + n1);
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    const T rho = alpha - th * (k.lambda_loc2 + k.lambda_22);
    T g_alpha = 0, g_theta = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const T r = k.lambda_loc2 * (w[i] - w0[i]) + k.lambda_22 * w[i];
      g_alpha += gw[i] * w[i];
      g_theta -= gw[i] * (grad[i] + r);
      gw_prev[i] = rho * gw[i];
      gg[i] = -th * gw[i];
    }
    g.alpha[t] = g_alpha;
    g.theta[t] = g_theta;
    mlp::inner_gradient_backward(dims, w, w + n1, kt, a, h, e, bias, gg.data(), gg.data() + n1, gw_prev.data(),
                                 gw_prev.data() + n1, &g.k[t * d], &g.v[t * d]);
    gw.swap(gw_prev);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T, RuleKind K>
ChunkGrads<T> MlpL2Rule<T, K>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return mlp_backward_body<T, K>(cfg, s, x, p, c, gy);
}

template struct MlpL2Rule<float, RuleKind::moneta>;
template struct MlpL2Rule<double, RuleKind::moneta>;
template struct MlpL2Rule<Tracked32, RuleKind::moneta>;
template struct MlpL2Rule<Tracked64, RuleKind::moneta>;
template struct MlpL2Rule<float, RuleKind::yaad>;
template struct MlpL2Rule<double, RuleKind::yaad>;
template struct MlpL2Rule<Tracked32, RuleKind::yaad>;
template struct MlpL2Rule<Tracked64, RuleKind::yaad>;

}  // namespace nl
