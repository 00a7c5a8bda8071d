#pragma once
// TitansLMM (nltrain-math §6.2): the momentum matrix memory driven by the surprise
// psi(M_t k_t - v_t) (L2 bias), normalized k and q.
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/momentum_memory.hpp"

namespace nl {

template <typename T>
struct TitansLMM : FrozenReadOf<T, RuleKind::titans> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::titans;

  struct Cache {
    FrontCache<T> front;
    momentum::Trajectory<T> traj;  // a = e_t = M_t k_t - v_t
    template <typename F>
    void visit(F&& f) {
      front.visit(f), traj.m.visit(f), traj.s.visit(f), f(traj.a);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct TitansLMM<float>;
extern template struct TitansLMM<double>;

}  // namespace nl
