#pragma once
// The frozen read-only variant of every rule (nltrain-math §7): the level reads its constant
// context memory with the query and writes nothing. Four read kinds cover the nine rules:
// matrix (Delta, Titans, Hebbian, Atlas: M q), MLP (Moneta, YAAD, MEMORA: W2 silu(W1 q)),
// Lattice (softmax over slots) and Trellis (S_V N(S_K q)). The query is Q~ = X W_Q^T, normalized
// exactly as in the active read (O-1); the backward returns the adjoint of Q~ only.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/memory_rule.hpp"
#include "nl/rule_config.hpp"

namespace nl {

// Floats the read kernel keeps per token (FrozenCache::aux).
[[nodiscard]] std::size_t read_aux_size(RuleKind kind, const RuleConfig& cfg);

template <typename T>
[[nodiscard]] FrozenForward<T> frozen_forward(RuleKind kind, const RuleConfig& cfg, std::size_t s,
                                              std::span<const T> q_raw, std::span<const T> state);

template <typename T>
[[nodiscard]] std::vector<T> frozen_backward(RuleKind kind, const RuleConfig& cfg, std::size_t s,
                                             std::span<const T> state, const FrozenCache<T>& cache,
                                             std::span<const T> gy);

// Mixin giving a rule class template its frozen pair.
template <typename T, RuleKind K>
struct FrozenReadOf {
  [[nodiscard]] static FrozenForward<T> frozen_forward(const RuleConfig& cfg, std::size_t s, std::span<const T> q_raw,
                                                       std::span<const T> state) {
    return nl::frozen_forward<T>(K, cfg, s, q_raw, state);
  }
  [[nodiscard]] static std::vector<T> frozen_backward(const RuleConfig& cfg, std::size_t s, std::span<const T> state,
                                                      const FrozenCache<T>& cache, std::span<const T> gy) {
    return nl::frozen_backward<T>(K, cfg, s, state, cache, gy);
  }
};

}  // namespace nl
