#pragma once
// MemoryRule: what every memory rule provides (nltrain-math §6, §7; seed "Trait System Changes").
//
// A rule is a class template over the scalar (float on the tape, double in the gradient checks)
// with only static members:
//   kKind                         which rule (opaque keys, state shape, gates, normalization)
//   Cache                         its typed forward cache; visit(f) calls f(std::vector<T>&) on
//                                 every field in a fixed order (the opaque block saves them so)
//   forward(cfg, s, x, p, state0) runs the chunk: outputs y (s x d), the cache, the final state
//   step_backward(cfg, s, x, p, cache, gy)
//                                 hand-written backward: gX and the level-parameter gradients
//                                 (no gradient into state0: truncated at the chunk, O-17)
// and the frozen read-only pair, shared per read kind (frozen_read.hpp):
//   frozen_forward(cfg, s, q_raw, state)  y from the constant state; q_raw = Q~ = X W_Q^T
//   frozen_backward(cfg, s, state, cache, gy)  the adjoint of Q~
#include <concepts>
#include <cstddef>
#include <span>
#include <vector>

#include "nl/level_params.hpp"
#include "nl/rule_config.hpp"

namespace nl {

template <typename T, typename Cache>
struct ChunkForward {
  std::vector<T> y;            // s x d
  Cache cache;
  std::vector<T> final_state;  // the context memory after the chunk (same layout as state0)
};

template <typename T>
struct ChunkGrads {
  std::vector<T> x;       // s x d
  LevelParams<T> params;
};

// The frozen read's cache: the query it read with and what its read kernel keeps per token.
template <typename T>
struct FrozenCache {
  std::vector<T> q, q_norm;  // s x d, s (norms only where the rule normalizes)
  std::vector<T> aux;        // s x read_aux_size (frozen_read.hpp)

  template <typename F>
  void visit(F&& f) {
    f(q), f(q_norm), f(aux);
  }
};

template <typename T>
struct FrozenForward {
  std::vector<T> y;
  FrozenCache<T> cache;
};

template <typename R>
concept MemoryRule = requires(const RuleConfig& cfg, std::size_t s, std::span<const typename R::Scalar> v,
                              const LevelParams<typename R::Scalar>& p, const typename R::Cache& cache,
                              const FrozenCache<typename R::Scalar>& frozen) {
  { R::kKind } -> std::convertible_to<RuleKind>;
  { R::forward(cfg, s, v, p, v) } -> std::same_as<ChunkForward<typename R::Scalar, typename R::Cache>>;
  { R::step_backward(cfg, s, v, p, cache, v) } -> std::same_as<ChunkGrads<typename R::Scalar>>;
  { R::frozen_forward(cfg, s, v, v) } -> std::same_as<FrozenForward<typename R::Scalar>>;
  { R::frozen_backward(cfg, s, v, frozen, v) } -> std::same_as<std::vector<typename R::Scalar>>;
};

}  // namespace nl
