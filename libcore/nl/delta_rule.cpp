#include "nl/delta_rule.hpp"

#include <algorithm>

#include "nl/dense.hpp"
#include "tape/float_pool.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.
namespace {

// Eight independent partial sums, combined pairwise: the compiler vectorizes the lanes, which
// one chain cannot be (no -ffast-math). The order is fixed, so both gradient paths (and both
// clones) give the same bits. Local to DeltaRule: its libgpu pair tolerates the order change,
// the ill-conditioned MLP rules' pairs are checked against dense::dot's single chain.
template <typename T>
inline T dot8(const T* a, const T* b, std::size_t n) {
  T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (std::size_t l = 0; l < 8; ++l) acc[l] += a[i + l] * b[i + l];
  for (; i < n; ++i) acc[i % 8] += a[i] * b[i];
  return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

}  // namespace

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename DeltaRule<T>::Cache> forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename DeltaRule<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = DeltaRule<T>::kKind;
  const std::size_t d = cfg.d, dd = d * d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.m = tape::take_cache_buffer<T>((s + 1) * dd);  // every element is written below
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
    // M_{t+1} = retain M_t - th e k^T and y = M_{t+1} q, one row at a time: one pass over d^2.
    T* y = &out.y[t * d];
    const T* q = &c.front.q[t * d];
    for (std::size_t i = 0; i < d; ++i) {
      const T su = -th * e[i];
      const T* mr = m + i * d;
      T* nr = mn + i * d;
      for (std::size_t j = 0; j < d; ++j) nr[j] = retain * mr[j] + su * k[j];
      y[i] = dot8(nr, q, d);
    }
  }
  out.final_state.assign(c.m.end() - static_cast<std::ptrdiff_t>(dd), c.m.end());
  return out;
}

}  // namespace

template <typename T>
auto DeltaRule<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename DeltaRule<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = DeltaRule<T>::kKind;
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
    // Pass 1 over the rows of gM (after gM += gy q^T): gq += M_{t+1}^T gy, <gM, M_t>, gM k and
    // gM^T e together, so d^2 data is read once instead of five times.
    T g_alpha = 0;
    std::fill(gm_t_e.begin(), gm_t_e.end(), T(0));
    T* gqt = &g.q[t * d];
    for (std::size_t i = 0; i < d; ++i) {
      T* gr = &gm[i * d];
      const T gyi = gyt[i], ei = e[i];
      const T* nr = mn + i * d;
      for (std::size_t j = 0; j < d; ++j) {
        gr[j] += gyi * q[j];
        gqt[j] += nr[j] * gyi;
        gm_t_e[j] += gr[j] * ei;
      }
      g_alpha += dot8(gr, m + i * d, d);
      gm_k[i] = dot8(gr, k, d);
    }
    g.alpha[t] = -g_alpha;
    // G = psi(e) k^T enters as -th G: gG = -th gM.
    g.theta[t] = -dense::dot(e, gm_k.data(), d);
    for (std::size_t i = 0; i < d; ++i) ge[i] = -th * gm_k[i];  // psi' = 1
    dense::axpy(gk, -th, gm_t_e.data(), d);  // gG^T psi(e)
    for (std::size_t i = 0; i < d; ++i) g.v[t * d + i] -= ge[i];
    // Pass 2: gM_prev = (1 - alpha) gM + ge k^T and gk += M_t^T ge.
    const T keep = T(1) - alpha;
    for (std::size_t i = 0; i < d; ++i) {
      T* gr = &gm[i * d];
      const T gei = ge[i];
      const T* mr = m + i * d;
      for (std::size_t j = 0; j < d; ++j) {
        gr[j] = keep * gr[j] + gei * k[j];
        gk[j] += mr[j] * gei;
      }
    }
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> DeltaRule<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return backward_body<T>(cfg, s, x, p, c, gy);
}

template struct DeltaRule<float>;
template struct DeltaRule<double>;

}  // namespace nl
