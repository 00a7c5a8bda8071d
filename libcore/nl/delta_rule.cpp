#include "nl/delta_rule.hpp"

#include <algorithm>

#include "nl/dense.hpp"

namespace nl {

template <typename T>
auto DeltaRule<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
                           std::span<const T> state0) -> ChunkForward<T, Cache> {
  const std::size_t d = cfg.d, dd = d * d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.m.resize((s + 1) * dd);
  std::copy(state0.begin(), state0.end(), c.m.begin());
  c.e.resize(s * d);
  out.y.resize(s * d);
  for (std::size_t t = 0; t < s; ++t) {
    const T* m = &c.m[t * dd];
    T* mn = &c.m[(t + 1) * dd];
    const T* k = &c.front.k[t * d];
    T* e = &c.e[t * d];
    dense::matvec(m, d, d, k, e);
    for (std::size_t i = 0; i < d; ++i) e[i] -= c.front.v[t * d + i];
    const T retain = T(1) - c.front.alpha[t], th = c.front.theta[t];
    for (std::size_t i = 0; i < dd; ++i) mn[i] = retain * m[i];
    dense::add_outer(mn, d, d, -th, e, k);
    dense::matvec(mn, d, d, &c.front.q[t * d], &out.y[t * d]);
  }
  out.final_state.assign(c.m.end() - static_cast<std::ptrdiff_t>(dd), c.m.end());
  return out;
}

template <typename T>
ChunkGrads<T> DeltaRule<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                          const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  const std::size_t d = cfg.d, dd = d * d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  std::vector<T> gm(dd, T(0)), ge(d), gm_k(d), gm_t_e(d);
  for (std::size_t t = s; t-- > 0;) {
    const T* m = &c.m[t * dd];
    const T* mn = &c.m[(t + 1) * dd];
    const T* k = &c.front.k[t * d];
    const T* q = &c.front.q[t * d];
    const T* e = &c.e[t * d];
    const T* gyt = &gy[t * d];
    T* gk = &g.k[t * d];
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    dense::add_outer(gm.data(), d, d, T(1), gyt, q);
    dense::matvec_t_add(mn, d, d, gyt, &g.q[t * d]);
    g.alpha[t] = -dense::dot(gm.data(), m, dd);
    // G = psi(e) k^T enters as -th G: gG = -th gM.
    dense::matvec(gm.data(), d, d, k, gm_k.data());
    g.theta[t] = -dense::dot(e, gm_k.data(), d);
    for (std::size_t i = 0; i < d; ++i) ge[i] = -th * gm_k[i];  // psi' = 1
    std::fill(gm_t_e.begin(), gm_t_e.end(), T(0));
    dense::matvec_t_add(gm.data(), d, d, e, gm_t_e.data());
    dense::axpy(gk, -th, gm_t_e.data(), d);  // gG^T psi(e)
    for (std::size_t i = 0; i < d; ++i) g.v[t * d + i] -= ge[i];
    for (std::size_t i = 0; i < dd; ++i) gm[i] *= (T(1) - alpha);
    dense::add_outer(gm.data(), d, d, T(1), ge.data(), k);
    dense::matvec_t_add(m, d, d, ge.data(), gk);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

template struct DeltaRule<float>;
template struct DeltaRule<double>;

}  // namespace nl
