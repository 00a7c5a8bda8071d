#pragma once
// The front-end and back-end every memory rule shares (nltrain-math §6.0): projections
// K~ = X W_K^T, V~ = X W_V^T, Q~ = X W_Q^T, optional nrm() of keys and queries, and the three
// scalar gates of c_t = [k_t; v_t]. The back-end takes the adjoints a rule's recurrence produced
// for k, v, q and the gates, and returns gX with the projection and gate parameter gradients.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/level_params.hpp"
#include "nl/rule_config.hpp"

namespace nl {

template <typename T>
struct FrontCache {
  std::vector<T> k, v, q;             // s x d, after nrm() where the rule normalizes
  std::vector<T> k_norm, q_norm;      // s: ||k~_t||, ||q~_t|| (empty when not normalized)
  std::vector<T> alpha, theta, eta;   // s: gate outputs
  std::vector<T> theta_slope;         // s: sigma(a_theta) = softplus'(a_theta)

  template <typename F>
  void visit(F&& f) {
    f(k), f(v), f(q), f(k_norm), f(q_norm), f(alpha), f(theta), f(eta), f(theta_slope);
  }
};

// Adjoints produced by a rule's backward recurrence, consumed by front_backward.
template <typename T>
struct FrontGrads {
  std::vector<T> k, v, q;            // s x d
  std::vector<T> alpha, theta, eta;  // s
  std::vector<T> x_direct;           // s x d: rules that read x_t itself (Trellis, O-6)

  FrontGrads(std::size_t s, std::size_t d)
      : k(s * d), v(s * d), q(s * d), alpha(s), theta(s), eta(s), x_direct(s * d) {}
};

template <typename T>
[[nodiscard]] FrontCache<T> front_forward(RuleKind kind, std::size_t s, std::span<const T> x,
                                          const LevelParams<T>& p);

// Adds the gate and projection gradients into `gp` and returns gX (s x d). Consumes g.
template <typename T>
[[nodiscard]] std::vector<T> front_backward(RuleKind kind, std::size_t s, std::span<const T> x,
                                            const LevelParams<T>& p, const FrontCache<T>& c, FrontGrads<T>& g,
                                            LevelParams<T>& gp);

// The query half alone, for frozen reads (O-1: normalized exactly as in the active read).
// q_raw is Q~ (s x d); writes q and, when the rule normalizes, the norms.
template <typename T>
void query_forward(RuleKind kind, std::size_t s, std::size_t d, std::span<const T> q_raw, std::vector<T>& q,
                   std::vector<T>& q_norm);
// g_q is the adjoint of q; returns the adjoint of Q~.
template <typename T>
[[nodiscard]] std::vector<T> query_backward(RuleKind kind, std::size_t s, std::size_t d, std::span<const T> q,
                                            std::span<const T> q_norm, std::span<const T> g_q);

}  // namespace nl
