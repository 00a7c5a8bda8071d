#include "nl/atlas_omega.hpp"

#include "nl/dense.hpp"
#include "tape/ops/activation.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename AtlasOmega<T>::Cache> atlas_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename AtlasOmega<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = AtlasOmega<T>::kKind;
  const std::size_t d = cfg.d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.u.resize(s * 2 * d);
  for (std::size_t t = 0; t < s; ++t)
    for (std::size_t i = 0; i < d; ++i) {
      c.u[t * 2 * d + i] = tape::ops::silu_value(c.front.k[t * d + i]);
      c.u[t * 2 * d + d + i] = tape::ops::silu_value(c.front.v[t * d + i]);
    }
  momentum::forward<T>(s, d, c.front, state0, c.traj, out.y, [&](std::size_t t, const T*, T* omega) {
    dense::matvec(p.w_omega.data(), d, 2 * d, &c.u[t * 2 * d], omega);
  });
  momentum::finish<T>(s, d, c.traj, out.final_state);
  return out;
}

}  // namespace

template <typename T>
auto AtlasOmega<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return atlas_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> atlas_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename AtlasOmega<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = AtlasOmega<T>::kKind;
  const std::size_t d = cfg.d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, true)};
  std::vector<T> gu(2 * d);
  momentum::backward<T>(s, d, c.front, c.traj, gy, g, [&](std::size_t t, const T* g_omega, T*) {
    dense::add_outer(out.params.w_omega.data(), d, 2 * d, T(1), g_omega, &c.u[t * 2 * d]);
    std::fill(gu.begin(), gu.end(), T(0));
    dense::matvec_t_add(p.w_omega.data(), d, 2 * d, g_omega, gu.data());
    for (std::size_t i = 0; i < d; ++i) {
      g.k[t * d + i] += gu[i] * tape::ops::silu_derivative(c.front.k[t * d + i]);
      g.v[t * d + i] += gu[d + i] * tape::ops::silu_derivative(c.front.v[t * d + i]);
    }
  });
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> AtlasOmega<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return atlas_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct AtlasOmega<float>;
template struct AtlasOmega<double>;
template struct AtlasOmega<Tracked32>;
template struct AtlasOmega<Tracked64>;

}  // namespace nl
