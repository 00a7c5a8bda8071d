#include "nl/hebbian_rule.hpp"

#include <algorithm>

#include "nl/dense.hpp"
#include "tape/float_pool.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename HebbianRule<T>::Cache> hebbian_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename HebbianRule<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = HebbianRule<T>::kKind;
  const std::size_t d = cfg.d, dd = d * d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.m.start(s + 1, state0);
  out.y.resize(s * d);
  for (std::size_t t = 0; t < s; ++t) {
    const T* m = c.m.state(t);
    T* mn = c.m.fill(t + 1);
    const T retain = T(1) - c.front.alpha[t];
    for (std::size_t i = 0; i < dd; ++i) mn[i] = retain * m[i];
    dense::add_outer(mn, d, d, T(1), &c.front.v[t * d], &c.front.k[t * d]);
    dense::matvec(mn, d, d, &c.front.q[t * d], &out.y[t * d]);
  }
  out.final_state.assign(c.m.state(s), c.m.state(s) + dd);
  c.m.finish();
  return out;
}

}  // namespace

template <typename T>
auto HebbianRule<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return hebbian_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> hebbian_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename HebbianRule<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = HebbianRule<T>::kKind;
  const std::size_t d = cfg.d, dd = d * d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.m.shape(s + 1, dd);
  std::vector<T> gm(dd, T(0));
  for (std::size_t t = s; t-- > 0;) {
    const T* gyt = &gy[t * d];
    dense::add_outer(gm.data(), d, d, T(1), gyt, &c.front.q[t * d]);
    dense::matvec_t_add(c.m.state(t + 1), d, d, gyt, &g.q[t * d]);
    g.alpha[t] = -dense::dot(gm.data(), c.m.state(t), dd);
    dense::matvec(gm.data(), d, d, &c.front.k[t * d], &g.v[t * d]);          // gv = gM k (g.v starts 0)
    dense::matvec_t_add(gm.data(), d, d, &c.front.v[t * d], &g.k[t * d]);  // gk += gM^T v
    const T retain = T(1) - c.front.alpha[t];
    for (std::size_t i = 0; i < dd; ++i) gm[i] *= retain;
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> HebbianRule<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return hebbian_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct HebbianRule<float>;
template struct HebbianRule<double>;
template struct HebbianRule<Tracked32>;
template struct HebbianRule<Tracked64>;

}  // namespace nl
