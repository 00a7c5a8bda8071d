#pragma once
// cms_forward: one chunk through the MAG block with CMS levels (nltrain-math §3), without a tape.
// It computes with the tape's own forward kernels (tape/ops *_forward, the same code the traced
// ops run) and the rules' forward, in the order traced_cms_forward records them, so at T = float
// its loss is bitwise the traced loss. T = double re-evaluates the same model in fp64 for the
// tight gradient check. The result keeps every intermediate cms_backward needs.
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "nl/conductor.hpp"
#include "nl/context_memory.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "nl/swa.hpp"

namespace nl {

// One level's forward cache, type-erased: the fields of the rule's Cache (active) or of its
// FrozenCache (frozen), in visit() order.
template <typename T>
struct LevelForward {
  bool active = true;
  std::vector<std::vector<T>> fields;
  std::vector<T> y;  // s x d
};

template <typename T>
struct MagForward {
  T loss = 0;
  std::vector<std::size_t> ids, targets;
  std::size_t n_valid = 0;
  std::vector<T> x, q, k, v;  // s x d
  SwaForward<T> swa;          // A and its probabilities
  std::vector<LevelForward<T>> levels;
  std::vector<T> gate, z, pj, logits, probs;
  ContextMemory<T> context_after;  // active levels: their final state; frozen: unchanged
};

// c_K of §3: 1/sqrt(K) when K > 2, else 1.
template <typename T>
[[nodiscard]] T level_scale(std::size_t k) {
  return k > 2 ? T(1) / std::sqrt(static_cast<T>(k)) : T(1);
}

// Fails (naming the field) on a config/params/context/pulse that does not fit, an input id
// >= vocab, or a non-finite loss. Targets >= vocab are ignored (§9).
template <typename T>
[[nodiscard]] common::Result<MagForward<T>> cms_forward(const MagConfig& cfg, const MagParams<T>& params,
                                                        std::span<const std::size_t> ids,
                                                        std::span<const std::size_t> targets, const Pulse& pulse,
                                                        const ContextMemory<T>& context);

// The checks cms_forward and traced_cms_forward share.
template <typename T>
[[nodiscard]] common::Status check_chunk_inputs(const MagConfig& cfg, const MagParams<T>& params,
                                                std::span<const std::size_t> ids,
                                                std::span<const std::size_t> targets, const Pulse& pulse,
                                                const ContextMemory<T>& context);

}  // namespace nl
