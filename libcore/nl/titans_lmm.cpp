#include "nl/titans_lmm.hpp"

#include "nl/dense.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename TitansLMM<T>::Cache> titans_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename TitansLMM<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = TitansLMM<T>::kKind;
  const std::size_t d = cfg.d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  momentum::forward<T>(s, d, c.front, state0, c.traj, out.y, [&](std::size_t t, const T* m, T* e) {
    dense::matvec(m, d, d, &c.front.k[t * d], e);
    for (std::size_t i = 0; i < d; ++i) e[i] -= c.front.v[t * d + i];  // psi(e) = e
  });
  momentum::finish<T>(s, d, c.traj, out.final_state);
  return out;
}

}  // namespace

template <typename T>
auto TitansLMM<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return titans_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> titans_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename TitansLMM<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = TitansLMM<T>::kKind;
  const std::size_t d = cfg.d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  momentum::backward<T>(s, d, c.front, c.traj, gy, g, [&](std::size_t t, const T* ge, T* gm_prev) {
    const T* k = &c.front.k[t * d];
    for (std::size_t i = 0; i < d; ++i) g.v[t * d + i] -= ge[i];
    dense::add_outer(gm_prev, d, d, T(1), ge, k);
    dense::matvec_t_add(c.traj.m.state(t), d, d, ge, &g.k[t * d]);
  });
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> TitansLMM<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return titans_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct TitansLMM<float>;
template struct TitansLMM<double>;
template struct TitansLMM<Tracked32>;
template struct TitansLMM<Tracked64>;

}  // namespace nl
