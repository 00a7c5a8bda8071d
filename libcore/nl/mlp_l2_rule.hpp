#pragma once
// The MLP memory with L2-type retention, shared by Moneta (§6.6) and YAAD (§6.7):
//   (G1, G2) = MLPGRAD(W_t, k_t, v_t),  R_i = 2 lambda_loc (W_i,t - B_i) + 2 lambda_2 W_i,t
//   W_i,t+1 = alpha_t W_i,t - theta_t (G_i + R_i),   y_t = W2_{t+1} silu(W1_{t+1} q_t)
// with B = the chunk's initial state. Moneta: l_p bias, lambda_loc = 0. YAAD: Huber bias.
// State layout: W1 (d_h x d) then W2 (d x d_h). alpha is retention here (O-3).
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T, RuleKind K>
struct MlpL2Rule : FrozenReadOf<T, K> {
  static_assert(K == RuleKind::moneta || K == RuleKind::yaad);
  using Scalar = T;
  static constexpr RuleKind kKind = K;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> w;    // W_0 .. W_s, (s+1) x state size
    std::vector<T> a, h, e;  // s x d_h, s x d_h, s x d: the inner step's forward
    std::vector<T> aq;       // s x d_h: W1_{t+1} q_t
    template <typename F>
    void visit(F&& f) {
      front.visit(f), w.visit(f), f(a), f(h), f(e), f(aq);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct MlpL2Rule<float, RuleKind::moneta>;
extern template struct MlpL2Rule<double, RuleKind::moneta>;
extern template struct MlpL2Rule<float, RuleKind::yaad>;
extern template struct MlpL2Rule<double, RuleKind::yaad>;

}  // namespace nl
