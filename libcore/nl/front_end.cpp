#include "nl/front_end.hpp"

#include "nl/dense.hpp"
#include "nl/unit_norm.hpp"
#include "tape/ops/activation.hpp"

namespace nl {

using tape::ops::clamped_sigmoid;
using tape::ops::clamped_softplus;

template <typename T>
FrontCache<T> front_forward(RuleKind kind, std::size_t s, std::span<const T> x, const LevelParams<T>& p) {
  const std::size_t d = p.width();
  FrontCache<T> c;
  c.k.resize(s * d), c.v.resize(s * d), c.q.resize(s * d);
  dense::project(x.data(), s, d, p.w_k.data(), d, c.k.data());
  dense::project(x.data(), s, d, p.w_v.data(), d, c.v.data());
  std::vector<T> q_raw(s * d);
  dense::project(x.data(), s, d, p.w_q.data(), d, q_raw.data());
  query_forward<T>(kind, s, d, q_raw, c.q, c.q_norm);
  if (normalizes_kq(kind)) {
    c.k_norm.resize(s);
    for (std::size_t t = 0; t < s; ++t) c.k_norm[t] = unit_norm_forward(&c.k[t * d], d, &c.k[t * d]);
  }
  c.alpha.resize(s), c.theta.resize(s), c.eta.resize(s), c.theta_slope.resize(s);
  for (std::size_t t = 0; t < s; ++t) {
    const T* k = &c.k[t * d];
    const T* v = &c.v[t * d];
    auto gate_pre = [&](const std::vector<T>& w, T b) { return dense::dot(w.data(), k, d) + dense::dot(&w[d], v, d) + b; };
    const T a_theta = gate_pre(p.w_theta, p.b_theta);
    c.alpha[t] = clamped_sigmoid(gate_pre(p.w_alpha, p.b_alpha));
    c.theta[t] = clamped_softplus(a_theta);
    c.theta_slope[t] = clamped_sigmoid(a_theta);
    c.eta[t] = clamped_sigmoid(gate_pre(p.w_eta, p.b_eta));
  }
  return c;
}

template <typename T>
std::vector<T> front_backward(RuleKind kind, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
                              const FrontCache<T>& c, FrontGrads<T>& g, LevelParams<T>& gp) {
  const std::size_t d = p.width();
  for (std::size_t t = 0; t < s; ++t) {
    const T* k = &c.k[t * d];
    const T* v = &c.v[t * d];
    T* gk = &g.k[t * d];
    T* gv = &g.v[t * d];
    auto gate = [&](T ga, const std::vector<T>& w, std::vector<T>& gw, T& gb) {
      dense::axpy(gw.data(), ga, k, d);
      dense::axpy(&gw[d], ga, v, d);
      gb += ga;
      dense::axpy(gk, ga, w.data(), d);
      dense::axpy(gv, ga, &w[d], d);
    };
    const T a = c.alpha[t], e = c.eta[t];
    gate(g.alpha[t] * a * (T(1) - a), p.w_alpha, gp.w_alpha, gp.b_alpha);
    gate(g.theta[t] * c.theta_slope[t], p.w_theta, gp.w_theta, gp.b_theta);
    gate(g.eta[t] * e * (T(1) - e), p.w_eta, gp.w_eta, gp.b_eta);
  }
  std::vector<T> gk_raw = g.k;
  if (normalizes_kq(kind)) {
    std::fill(gk_raw.begin(), gk_raw.end(), T(0));
    for (std::size_t t = 0; t < s; ++t) unit_norm_backward(&c.k[t * d], c.k_norm[t], &g.k[t * d], d, &gk_raw[t * d]);
  }
  const std::vector<T> gq_raw = query_backward<T>(kind, s, d, c.q, c.q_norm, g.q);
  std::vector<T> gx = std::move(g.x_direct);
  dense::project_backward(x.data(), s, d, p.w_k.data(), d, gk_raw.data(), gp.w_k.data(), gx.data());
  dense::project_backward(x.data(), s, d, p.w_v.data(), d, g.v.data(), gp.w_v.data(), gx.data());
  dense::project_backward(x.data(), s, d, p.w_q.data(), d, gq_raw.data(), gp.w_q.data(), gx.data());
  return gx;
}

template <typename T>
void query_forward(RuleKind kind, std::size_t s, std::size_t d, std::span<const T> q_raw, std::vector<T>& q,
                   std::vector<T>& q_norm) {
  q.assign(q_raw.begin(), q_raw.end());
  q_norm.clear();
  if (!normalizes_kq(kind)) return;
  q_norm.resize(s);
  for (std::size_t t = 0; t < s; ++t) q_norm[t] = unit_norm_forward(&q[t * d], d, &q[t * d]);
}

template <typename T>
std::vector<T> query_backward(RuleKind kind, std::size_t s, std::size_t d, std::span<const T> q,
                              std::span<const T> q_norm, std::span<const T> g_q) {
  if (!normalizes_kq(kind)) return {g_q.begin(), g_q.end()};
  std::vector<T> g_raw(s * d, T(0));
  for (std::size_t t = 0; t < s; ++t) unit_norm_backward(&q[t * d], q_norm[t], &g_q[t * d], d, &g_raw[t * d]);
  return g_raw;
}

#define NL_FRONT_END(T)                                                                                        \
  template FrontCache<T> front_forward<T>(RuleKind, std::size_t, std::span<const T>, const LevelParams<T>&);  \
  template std::vector<T> front_backward<T>(RuleKind, std::size_t, std::span<const T>, const LevelParams<T>&, \
                                            const FrontCache<T>&, FrontGrads<T>&, LevelParams<T>&);           \
  template void query_forward<T>(RuleKind, std::size_t, std::size_t, std::span<const T>, std::vector<T>&,     \
                                 std::vector<T>&);                                                            \
  template std::vector<T> query_backward<T>(RuleKind, std::size_t, std::size_t, std::span<const T>,           \
                                            std::span<const T>, std::span<const T>);
NL_FRONT_END(float)
NL_FRONT_END(double)
NL_FRONT_END(Tracked32)
NL_FRONT_END(Tracked64)
#undef NL_FRONT_END

}  // namespace nl
