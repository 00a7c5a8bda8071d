#pragma once
// LatticeOSR (nltrain-math §6.9, O-7): m unit-norm slots, read before write.
//   read:  w = softmax(S_t q_t), y_t = sum_i w_i S_t[i]
//   write: gamma_i = sigma(S_t[i].k_t), delta_i = alpha_t gamma_i u_i, p_i = S_t[i].delta_i,
//          S_{t+1}[i] = normalize(S_t[i] + delta_i - p_i S_t[i])  (kept when the norm <= 1e-8)
// with u_i = v_t (decode), k_t (encode) or v_t - (S_t[i].v_t) S_t[i] (similarity).
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T>
struct LatticeOsr : FrozenReadOf<T, RuleKind::lattice> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::lattice;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> slots;    // S_0 .. S_s, (s+1) x m x d
    std::vector<T> w;            // s x m: read weights
    std::vector<T> gamma, norm;  // s x m: write gates and un-normalized slot norms
    template <typename F>
    void visit(F&& f) {
      front.visit(f), slots.visit(f), f(w), f(gamma), f(norm);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct LatticeOsr<float>;
extern template struct LatticeOsr<double>;

}  // namespace nl
