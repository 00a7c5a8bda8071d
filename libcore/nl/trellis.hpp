#pragma once
// Trellis (nltrain-math §6.10, O-6): two-pass compressed memory, read before write, keys and
// queries not normalized; S_K is d_c x d, S_V is d x d_c, kappa_t = k_t[0:d_c].
//   read:   y_t = S_V,t N(S_K,t q_t)
//   pass 1: e_k = S_K,t x_t - kappa_t,  S_K,t+1 = (1-alpha) S_K,t - theta (e_k x_t^T + lambda_k S_K,t)
//   pass 2: c_k = N(S_K,t+1 x_t),  e_v = S_V,t c_k - v_t,
//           S_V,t+1 = (1-alpha) S_V,t - theta (e_v c_k^T + lambda_v S_V,t)
// It reads the raw embedding x_t itself, so its backward adds a direct term to gX.
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T>
struct Trellis : FrozenReadOf<T, RuleKind::trellis> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::trellis;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> st;  // (S_K, S_V)_0 .. _s
    std::vector<T> read;    // s x (2 d_c + 1): rho_q, c_q, ||silu(rho_q)||
    std::vector<T> key;     // s x (2 d_c + 1): rho_k, c_k, ||silu(rho_k)||
    std::vector<T> ek, ev;  // s x d_c, s x d
    template <typename F>
    void visit(F&& f) {
      front.visit(f), st.visit(f), f(read), f(key), f(ek), f(ev);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct Trellis<float>;
extern template struct Trellis<double>;

}  // namespace nl
