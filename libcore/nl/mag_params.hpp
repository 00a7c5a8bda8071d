#pragma once
// MagParams: every outer-loop parameter of the MAG model (nltrain-math §2): the attention group
// E (V x d), W_Q, W_K, W_V, W_O (d x d), U_emb (d x V, logits = Pj U_emb) and one LevelParams per
// CMS level, and with a learned schedule the frequency gate W_freq ((K-1) x d) and b_freq (K-1)
// (empty otherwise). The same structure holds gradients. Flat order (for finite differences and
// the optimizer): E, W_Q, W_K, W_V, W_O, U_emb, each level's flat LevelParams, W_freq, b_freq.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/level_params.hpp"
#include "nl/mag_config.hpp"

namespace nl {

template <typename T>
struct MagParams {
  std::vector<T> e, w_q, w_k, w_v, w_o, u_emb;
  std::vector<LevelParams<T>> levels;
  std::vector<T> w_freq, b_freq;  // frequency gate (learned schedule only)

  // Seeded initialisation (xorshift64, fill orders and scales of §2; b_alpha negated for the
  // forget-gate rules, O-3). cfg must be valid.
  [[nodiscard]] static MagParams init(const MagConfig& cfg);
  [[nodiscard]] static MagParams zeros(const MagConfig& cfg);

  // Every tensor has the size zeros(cfg) gives it (cfg valid); checked without copying.
  [[nodiscard]] bool fits(const MagConfig& cfg) const;
  [[nodiscard]] std::vector<T> to_flat() const;
  // flat must hold exactly to_flat().size() values for cfg.
  [[nodiscard]] static MagParams from_flat(const MagConfig& cfg, std::span<const T> flat);

  template <typename U>
  [[nodiscard]] MagParams<U> cast() const;
};

extern template struct MagParams<float>;
extern template struct MagParams<double>;

// Gate-bias defaults of level l (§2 table; levels >= 6 reuse level 0's, with b_eta = 2).
struct GateBiases {
  double alpha, theta, eta;
};
[[nodiscard]] GateBiases default_gate_biases(RuleKind rule, std::size_t level);

}  // namespace nl
