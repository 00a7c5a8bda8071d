#include "nl/trellis.hpp"

#include <algorithm>

#include "nl/dense.hpp"
#include "nl/trellis_read.hpp"
#include "tape/float_pool.hpp"

namespace nl {

// The rules' bodies are free functions: GCC drops target_clones from a member of a class
// template declared `extern template` (the headers' pattern), leaving only baseline code.

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkForward<T, typename Trellis<T>::Cache> trellis_forward_body(const RuleConfig& cfg, std::size_t s,
    std::span<const T> x, const LevelParams<T>& p, std::span<const T> state0) {
  using Cache = typename Trellis<T>::Cache;
  [[maybe_unused]] constexpr RuleKind kKind = Trellis<T>::kKind;
  const std::size_t d = cfg.d, dc = cfg.d_c, nk = dc * d, n = 2 * nk, nr = trellis::read_cache_size(dc);
  const T lk = static_cast<T>(cfg.lambda_k), lv = static_cast<T>(cfg.lambda_v);
  ChunkForward<T, Cache> out;
  Cache& c = out.cache;
  c.front = front_forward<T>(kKind, s, x, p);
  c.st.start(s + 1, state0);
  c.read.resize(s * nr), c.key.resize(s * nr), c.ek.resize(s * dc), c.ev.resize(s * d);
  out.y.resize(s * d);
  for (std::size_t t = 0; t < s; ++t) {
    const T* sk = c.st.state(t);
    const T* sv = sk + nk;
    T* skn = c.st.fill(t + 1);
    T* svn = skn + nk;
    const T* xt = &x[t * d];
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    trellis::read(sk, sv, dc, d, &c.front.q[t * d], &c.read[t * nr], &out.y[t * d]);
    T* ek = &c.ek[t * dc];
    dense::matvec(sk, dc, d, xt, ek);
    for (std::size_t i = 0; i < dc; ++i) ek[i] -= c.front.k[t * d + i];
    for (std::size_t i = 0; i < nk; ++i) skn[i] = (T(1) - alpha) * sk[i] - th * lk * sk[i];
    dense::add_outer(skn, dc, d, -th, ek, xt);
    T* key = &c.key[t * nr];
    dense::matvec(skn, dc, d, xt, key);
    key[2 * dc] = trellis::normalized_silu(key, dc, key + dc);
    const T* ck = key + dc;
    T* ev = &c.ev[t * d];
    dense::matvec(sv, d, dc, ck, ev);
    for (std::size_t i = 0; i < d; ++i) ev[i] -= c.front.v[t * d + i];
    for (std::size_t i = 0; i < nk; ++i) svn[i] = (T(1) - alpha) * sv[i] - th * lv * sv[i];
    dense::add_outer(svn, d, dc, -th, ev, ck);
  }
  out.final_state.assign(c.st.state(s), c.st.state(s) + n);
  c.st.finish();
  return out;
}

}  // namespace

template <typename T>
auto Trellis<T>::forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x, const LevelParams<T>& p,
    std::span<const T> state0) -> ChunkForward<T, Cache> {
  return trellis_forward_body<T>(cfg, s, x, p, state0);
}

namespace {

template <typename T>
NL_VECTOR_CLONES ChunkGrads<T> trellis_backward_body(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const typename Trellis<T>::Cache& c, std::span<const T> gy) {
  [[maybe_unused]] constexpr RuleKind kKind = Trellis<T>::kKind;
  const std::size_t d = cfg.d, dc = cfg.d_c, nk = dc * d, n = 2 * nk, nr = trellis::read_cache_size(dc);
  const T lk = static_cast<T>(cfg.lambda_k), lv = static_cast<T>(cfg.lambda_v);
  FrontGrads<T> g(s, d);
  ChunkGrads<T> out{{}, LevelParams<T>::zeros(d, false)};
  c.st.shape(s + 1, n);
  std::vector<T> gst(n, T(0)), gprev(n), gev(d), gck(dc), grho(dc), gek(dc), tmp(d);
  for (std::size_t t = s; t-- > 0;) {
    const T* sk = c.st.state(t);
    const T* sv = sk + nk;
    const T* skn = c.st.state(t + 1);
    const T* xt = &x[t * d];
    const T* key = &c.key[t * nr];
    const T* ck = key + dc;
    const T* ek = &c.ek[t * dc];
    const T* ev = &c.ev[t * d];
    T* gsk = gst.data();  // adjoints of S_K,t+1 and S_V,t+1
    T* gsv = gsk + nk;
    T* gsk_t = gprev.data();
    T* gsv_t = gsk_t + nk;
    T* gx = &g.x_direct[t * d];
    const T alpha = c.front.alpha[t], th = c.front.theta[t];
    std::fill(gprev.begin(), gprev.end(), T(0));
    trellis::read_backward(sk, sv, dc, d, &c.front.q[t * d], &c.read[t * nr], &gy[t * d], gsk_t, gsv_t,
                           &g.q[t * d]);
    // pass 2
    T g_alpha = 0, g_theta = 0;
    for (std::size_t i = 0; i < nk; ++i) {
      gsv_t[i] += (T(1) - alpha - th * lv) * gsv[i];
      g_alpha -= gsv[i] * sv[i];
    }
    std::fill(gck.begin(), gck.end(), T(0));
    dense::matvec_t_add(gsv, d, dc, ev, gck.data());                    // gSV^T e_v
    dense::matvec(gsv, d, dc, ck, gev.data());                          // gSV c_k
    g_theta -= dense::dot(ev, gev.data(), d) + lv * dense::dot(gsv, sv, nk);  // -<gSV, GV>
    for (std::size_t i = 0; i < d; ++i) gev[i] *= -th;
    for (std::size_t i = 0; i < dc; ++i) gck[i] *= -th;
    dense::add_outer(gsv_t, d, dc, T(1), gev.data(), ck);
    dense::matvec_t_add(sv, d, dc, gev.data(), gck.data());
    for (std::size_t i = 0; i < d; ++i) g.v[t * d + i] -= gev[i];
    std::fill(grho.begin(), grho.end(), T(0));
    trellis::normalized_silu_backward(key, ck, key[2 * dc], gck.data(), dc, grho.data());
    dense::add_outer(gsk, dc, d, T(1), grho.data(), xt);
    dense::matvec_t_add(skn, dc, d, grho.data(), gx);
    // pass 1
    for (std::size_t i = 0; i < nk; ++i) {
      gsk_t[i] += (T(1) - alpha - th * lk) * gsk[i];
      g_alpha -= gsk[i] * sk[i];
    }
    dense::matvec(gsk, dc, d, xt, gek.data());  // gSK x
    g_theta -= dense::dot(ek, gek.data(), dc) + lk * dense::dot(gsk, sk, nk);
    for (std::size_t i = 0; i < dc; ++i) gek[i] *= -th;
    std::fill(tmp.begin(), tmp.end(), T(0));
    dense::matvec_t_add(gsk, dc, d, ek, tmp.data());
    dense::axpy(gx, -th, tmp.data(), d);
    dense::add_outer(gsk_t, dc, d, T(1), gek.data(), xt);
    dense::matvec_t_add(sk, dc, d, gek.data(), gx);
    for (std::size_t i = 0; i < dc; ++i) g.k[t * d + i] -= gek[i];
    g.alpha[t] = g_alpha;
    g.theta[t] = g_theta;
    gst.swap(gprev);
  }
  out.x = front_backward<T>(kKind, s, x, p, c.front, g, out.params);
  return out;
}

}  // namespace

template <typename T>
ChunkGrads<T> Trellis<T>::step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
    const LevelParams<T>& p, const Cache& c, std::span<const T> gy) {
  return trellis_backward_body<T>(cfg, s, x, p, c, gy);
}

template struct Trellis<float>;
template struct Trellis<double>;
template struct Trellis<Tracked32>;
template struct Trellis<Tracked64>;

}  // namespace nl
