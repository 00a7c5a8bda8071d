#include "nl/delta_rule.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "nl/dense.hpp"
#include "tape/float_pool.hpp"

namespace nl {

using dense::dot8;

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.
namespace {

// Eight lanes as one GCC vector (two or four machine registers, whichever the clone has): the
// same IEEE operation on every lane, in the order a scalar loop would do it.
template <typename T>
struct Lanes8Of;
template <>
struct Lanes8Of<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct Lanes8Of<double> {
  typedef double type __attribute__((vector_size(64)));
};
// The audit scalars have no machine vector: eight lanes as an array, the same operations in the
// same order lane by lane.
template <typename S>
struct TrackedLanes8 {
  S x[8];
  S& operator[](std::size_t i) { return x[i]; }
  const S& operator[](std::size_t i) const { return x[i]; }
  TrackedLanes8& operator+=(const TrackedLanes8& o) {
    for (std::size_t i = 0; i < 8; ++i) x[i] += o.x[i];
    return *this;
  }
  friend TrackedLanes8 operator+(TrackedLanes8 a, const TrackedLanes8& b) { return a += b; }
  friend TrackedLanes8 operator*(const TrackedLanes8& a, const TrackedLanes8& b) {
    TrackedLanes8 r;
    for (std::size_t i = 0; i < 8; ++i) r.x[i] = a.x[i] * b.x[i];
    return r;
  }
  friend TrackedLanes8 operator*(const S& s, const TrackedLanes8& a) {
    TrackedLanes8 r;
    for (std::size_t i = 0; i < 8; ++i) r.x[i] = s * a.x[i];
    return r;
  }
  friend TrackedLanes8 operator*(const TrackedLanes8& a, const S& s) {
    TrackedLanes8 r;
    for (std::size_t i = 0; i < 8; ++i) r.x[i] = a.x[i] * s;
    return r;
  }
};
template <>
struct Lanes8Of<Tracked32> {
  using type = TrackedLanes8<Tracked32>;
};
template <>
struct Lanes8Of<Tracked64> {
  using type = TrackedLanes8<Tracked64>;
};
template <typename T>
using Lanes8 = typename Lanes8Of<T>::type;

// Unaligned loads and stores; by reference, as a vector argument or result would change the ABI
// between the clones. Through void*: the Tracked lanes are trivially copyable in fact (value and
// bound), but their constructors make GCC's -Wclass-memaccess object to a typed memcpy.
#define NL_LOAD8(v, p) std::memcpy(static_cast<void*>(&(v)), static_cast<const void*>(p), sizeof(v))
#define NL_STORE8(p, v) std::memcpy(static_cast<void*>(p), static_cast<const void*>(&(v)), sizeof(v))
static_assert(std::is_trivially_copyable_v<Tracked32> && std::is_trivially_copyable_v<Tracked64>);

// p[0..8) += v * s, lane by lane.
template <typename T>
[[gnu::always_inline]] inline void add_scaled8(T* p, const Lanes8<T>& v, T s) {
  Lanes8<T> b;
  NL_LOAD8(b, p);
  b += v * s;
  NL_STORE8(p, b);
}

// One row of the forward step. The two dot products sum in dot8's lanes and order.
template <typename T>
[[gnu::always_inline]] inline void forward_row(std::size_t d, const T* mr, T* nr, const T* k, const T* q, T v_i,
                                               T retain, T th, T& e_i, T& y_i) {
  T e_acc = dot8(mr, k, d);
  e_i = e_acc - v_i;
  const T su = -th * e_i;
  Lanes8<T> acc = {};
  std::size_t j = 0;
  for (; j + 8 <= d; j += 8) {
    Lanes8<T> a, b;
    NL_LOAD8(a, mr + j);
    NL_LOAD8(b, k + j);
    a = retain * a + su * b;
    NL_STORE8(nr + j, a);
    NL_LOAD8(b, q + j);
    acc += a * b;
  }
  for (; j < d; ++j) {
    nr[j] = retain * mr[j] + su * k[j];
    acc[j % 8] += nr[j] * q[j];
  }
  y_i = ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename DeltaRule<T>::Cache> delta_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename DeltaRule<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = DeltaRule<T>::kKind;
  const std::size_t d = cfg.d, dd = d * d;
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.m.start(s + 1, state0);
  c.e.resize(s * d);
  out.y.resize(s * d);
  for (std::size_t t = 0; t < s; ++t) {
    const T* m = c.m.state(t);
    T* mn = c.m.fill(t + 1);
    const T* k = &c.front.k[t * d];
    const T* v = &c.front.v[t * d];
    const T* q = &c.front.q[t * d];
    T* e = &c.e[t * d];
    T* y = &out.y[t * d];
    const T retain = T(1) - c.front.alpha[t], th = c.front.theta[t];
    // Row i alone gives e_i = (M_t k)_i - v_i, row i of M_{t+1} = retain M_t - th e k^T and
    // y_i = (M_{t+1} q)_i: one walk over d^2 per token.
    for (std::size_t i = 0; i < d; ++i) forward_row<T>(d, m + i * d, mn + i * d, k, q, v[i], retain, th, e[i], y[i]);
  }
  out.final_state.assign(c.m.state(s), c.m.state(s) + dd);
  c.m.finish();
  return out;
}

}  // namespace

template <typename T>
auto DeltaRule<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return delta_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

// One row of the fused backward sweep (see delta_backward_body): pass 2 of token t+1 on row i of gM
// (when kNext), then pass 1 of token t on the same row, in one walk over the row. Every
// accumulation runs in the order of the two separate passes (the two dot products in dot8's
// lanes), so the bits are theirs.
template <typename T, bool kNext>
[[gnu::always_inline]] inline void backward_row(std::size_t d, T* gr, const T* nr, const T* mr, const T* q, const T* k,
                                                T gyi, T ei, T* gqt, T* gm_t_e, T& g_alpha, T& gm_k_i, T keep_next,
                                                T gen, const T* k_next, T* gk_next) {
  Lanes8<T> acc_a = {}, acc_k = {};
  std::size_t j = 0;
  for (; j + 8 <= d; j += 8) {
    Lanes8<T> g, n, a, b;
    NL_LOAD8(g, gr + j);
    NL_LOAD8(n, nr + j);
    if constexpr (kNext) {
      NL_LOAD8(a, k_next + j);
      g = keep_next * g + gen * a;
      add_scaled8(gk_next + j, n, gen);
    }
    NL_LOAD8(a, q + j);
    g += gyi * a;
    NL_STORE8(gr + j, g);
    add_scaled8(gqt + j, n, gyi);
    add_scaled8(gm_t_e + j, g, ei);
    NL_LOAD8(a, mr + j);
    acc_a += g * a;
    NL_LOAD8(b, k + j);
    acc_k += g * b;
  }
  for (; j < d; ++j) {
    T g = gr[j];
    if constexpr (kNext) {
      g = keep_next * g + gen * k_next[j];
      gk_next[j] += nr[j] * gen;
    }
    g += gyi * q[j];
    gr[j] = g;
    gqt[j] += nr[j] * gyi;
    gm_t_e[j] += g * ei;
    acc_a[j % 8] += g * mr[j];
    acc_k[j % 8] += g * k[j];
  }
  g_alpha += ((acc_a[0] + acc_a[4]) + (acc_a[2] + acc_a[6])) + ((acc_a[1] + acc_a[5]) + (acc_a[3] + acc_a[7]));
  gm_k_i = ((acc_k[0] + acc_k[4]) + (acc_k[2] + acc_k[6])) + ((acc_k[1] + acc_k[5]) + (acc_k[3] + acc_k[7]));
}

// Backward through the chunk, last token first. Per token: pass 1 (gM += gy q^T, then gq +=
// M_{t+1}^T gy, <gM, M_t>, gM k and gM^T e), the token's scalars, and pass 2 (gM_prev = (1 -
// alpha) gM + ge k^T, gk += M_t^T ge). Pass 2 of token t+1 and pass 1 of token t both walk gM
// and M_{t+1} row by row, so they run fused: d^2 data is read once per token, not twice.
template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> delta_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename DeltaRule<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = DeltaRule<T>::kKind;
  const std::size_t d = cfg.d, dd = d * d;
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.m.shape(s + 1, dd);
  std::vector<T> gm(dd, T(0)), ge(d), ge_next(d), gm_k(d), gm_t_e(d);
  T keep_next = 0;
  for (std::size_t t = s; t-- > 0;) {
    const bool next = t + 1 < s;
    const T* m = c.m.state(t);
    const T* mn = c.m.state(t + 1);
    const T* k = &c.front.k[t * d];
    const T* q = &c.front.q[t * d];
    const T* e = &c.e[t * d];
    const T* gyt = &gy[t * d];
    const T* k_next = next ? &c.front.k[(t + 1) * d] : k;
    T* gk_next = next ? &g.k[(t + 1) * d] : &g.k[t * d];
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    T g_alpha = 0;
    std::fill(gm_t_e.begin(), gm_t_e.end(), T(0));
    T* gqt = &g.q[t * d];
    // The row loop once per variant (std::bool_constant), inlined into this clone.
    auto sweep = [&](auto with_next) __attribute__((always_inline)) {
      for (std::size_t i = 0; i < d; ++i) {
        backward_row<T, decltype(with_next)::value>(d, &gm[i * d], mn + i * d, m + i * d, q, k, gyt[i], e[i], gqt,
            gm_t_e.data(), g_alpha, gm_k[i], keep_next, ge_next[i], k_next, gk_next);
      }
    };
    if (next) {
      sweep(std::true_type{});
    } else {
      sweep(std::false_type{});
    }
    g.alpha[t] = -g_alpha;
    // G = psi(e) k^T enters as -th G: gG = -th gM.
    g.theta[t] = -dense::dot(e, gm_k.data(), d);
    for (std::size_t i = 0; i < d; ++i) ge[i] = -th * gm_k[i];  // psi' = 1
    T* gk = &g.k[t * d];
    dense::axpy(gk, -th, gm_t_e.data(), d);  // gG^T psi(e)
    for (std::size_t i = 0; i < d; ++i) g.v[t * d + i] -= ge[i];
    std::swap(ge, ge_next);
    keep_next = T(1) - alpha;
  }
  // Pass 2 of the first token: only gk (the gradient of the initial state is not needed).
  if (s > 0) {
    T* gk = &g.k[0];
    const T* m0 = c.m.state(0);
    for (std::size_t i = 0; i < d; ++i) dense::axpy(gk, ge_next[i], m0 + i * d, d);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> DeltaRule<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return delta_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct DeltaRule<float>;
template struct DeltaRule<double>;
template struct DeltaRule<Tracked32>;
template struct DeltaRule<Tracked64>;

}  // namespace nl
