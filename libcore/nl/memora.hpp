#pragma once
// MEMORA (nltrain-math §6.8): MLP memory whose rows stay on the simplex (KL retention):
//   y_t = READ(W_t, q_t)  (read before write),  (G1, G2) = MLPGRAD(W_t, k_t, v_t), psi(e) = e
//   W_i,t+1[r,:] = softmax(alpha_t log(max(W_i,t[r,:], 1e-8)) - theta_t G_i[r,:])
// The log's derivative is masked to 0 where W <= 1e-8 (O-8).
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T>
struct Memora : FrozenReadOf<T, RuleKind::memora> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::memora;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> w;    // W_0 .. W_s
    std::vector<T> a, h, e;  // inner step forward per token
    std::vector<T> aq;       // s x d_h: W1_t q_t
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

extern template struct Memora<float>;
extern template struct Memora<double>;

}  // namespace nl
