#pragma once
// AtlasOmega (nltrain-math §6.4, O-14): the momentum matrix memory driven by a learned,
// state-independent omega_t = W_omega silu([k_t; v_t]); k and q not normalized.
#include <span>
#include <vector>

#include "nl/front_end.hpp"
#include "nl/frozen_read.hpp"
#include "nl/memory_rule.hpp"
#include "nl/momentum_memory.hpp"

namespace nl {

template <typename T>
struct AtlasOmega : FrozenReadOf<T, RuleKind::atlas> {
  using Scalar = T;
  static constexpr RuleKind kKind = RuleKind::atlas;

  struct Cache {
    FrontCache<T> front;
    momentum::Trajectory<T> traj;  // a = omega_t
    std::vector<T> u;              // s x 2d: silu([k_t; v_t])
    template <typename F>
    void visit(F&& f) {
      front.visit(f), traj.m.visit(f), traj.s.visit(f), f(traj.a), f(u);
    }
  };

  [[nodiscard]] static ChunkForward<T, Cache> forward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                      const LevelParams<T>& p, std::span<const T> state0);
  [[nodiscard]] static ChunkGrads<T> step_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> x,
                                                   const LevelParams<T>& p, const Cache& c, std::span<const T> gy);
};

extern template struct AtlasOmega<float>;
extern template struct AtlasOmega<double>;

}  // namespace nl
