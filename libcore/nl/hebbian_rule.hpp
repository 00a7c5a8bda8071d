#pragma once
// HebbianRule (nltrain-math §6.3): M_{t+1} = (1 - alpha_t) M_t + v_t k_t^T, y_t = M_{t+1} q_t,
// with normalized k and q (O-2).
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/segmented_states.hpp"

namespace nl {

template <typename T>
struct HebbianRule : FrozenReadOf<T, RuleKind::hebbian> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::hebbian;

  struct Cache {
    FrontCache<T> front;
    SegmentedStates<T> m;  // M_0 .. M_s
    template <typename F>
    void visit(F&& f) {
      front.visit(f), m.visit(f);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct HebbianRule<float>;
extern template struct HebbianRule<double>;

}  // namespace nl
