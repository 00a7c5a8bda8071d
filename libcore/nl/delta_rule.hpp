#pragma once
// DeltaRule (nltrain-math §6.1): M_{t+1} = (1 - a_t) M_t - th_t psi(M_t k_t - v_t) k_t^T,
// y_t = M_{t+1} q_t, with normalized k, q and the L2 bias psi(e) = e.
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T>
struct DeltaRule : FrozenReadOf<T, RuleKind::delta> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::delta;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> m;  // M_0 .. M_s, (s+1) x d x d
    std::vector<T> e;  // s x d: M_t k_t - v_t
    template <typename F>
    void visit(F&& f) {
      front.visit(f), m.visit(f), f(e);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct DeltaRule<float>;
extern template struct DeltaRule<double>;

}  // namespace nl
