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
#include "nl/frequency_gate.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "nl/swa.hpp"
#include "nl/tracked32.hpp"

namespace nl {

// One level's forward cache, type-erased: the fields of the rule's Cache (active) or of its
// FrozenCache (frozen), in visit() order.
template <typename T>
struct LevelForward {
  bool active = true;
  std::vector<std::vector<T>> fields;
  std::vector<T> y;  // s x d
  // A level the learned frequency gate decides (l >= 1, schedule learned) runs both variants:
  // `fields` is then the active cache, `frozen_fields` the frozen one, and y = mix_level(...).
  bool gated = false;
  T mask = 1;
  std::vector<std::vector<T>> frozen_fields;
  std::vector<T> y_active, y_frozen;
  std::vector<T> frozen_state;  // the context the frozen variant read (the active one may move on)
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
  GateForward<T> freq;             // learned schedule only
  Pulse pulse;                     // the levels that were active: the given pulse, or the gate's
};

// c_K of §3: 1/sqrt(K) when K > 2, else 1.
template <typename T>
[[nodiscard]] T level_scale(std::size_t k) {
  return k > 2 ? T(1) / sqrt(static_cast<T>(k)) : T(1);
}

// Fails (naming the field) on a config/params/context/pulse that does not fit, an input id
// >= vocab, or a non-finite loss. Targets >= vocab are ignored (§9). With a learned schedule the
// frequency gate picks the active levels and `pulse` only has to have k entries (f.pulse says
// which levels ran active).
template <typename T>
[[nodiscard]] common::Result<MagForward<T>> cms_forward(const MagConfig& cfg, const MagParams<T>& params,
                                                        std::span<const std::size_t> ids,
                                                        std::span<const std::size_t> targets, const Pulse& pulse,
                                                        const ContextMemory<T>& context);

// For checking the frequency gate's gradient by finite differences: cms_forward under a learned
// schedule with the gate's mask replaced by `mask` (k-1 values; any real, the selection
// m Y_active + (1 - m) Y_frozen is linear in m). A level counts as active where m > 0.5. The
// straight-through gradient cms_backward gives b_freq is dL/dm at the hard mask.
template <typename T>
[[nodiscard]] common::Result<MagForward<T>> cms_forward_with_mask(const MagConfig& cfg, const MagParams<T>& params,
                                                                  std::span<const std::size_t> ids,
                                                                  std::span<const std::size_t> targets,
                                                                  std::span<const T> mask,
                                                                  const ContextMemory<T>& context);

// The checks cms_forward and traced_cms_forward share.
template <typename T>
[[nodiscard]] common::Status check_chunk_inputs(const MagConfig& cfg, const MagParams<T>& params,
                                                std::span<const std::size_t> ids,
                                                std::span<const std::size_t> targets, const Pulse& pulse,
                                                const ContextMemory<T>& context);

}  // namespace nl
