#pragma once
// The learned frequency gate of CMS (seed "Dynamic Frequency Gate", StraightThroughBool), used
// when MagConfig::schedule is learned. Per chunk, from the mean embedding x-bar = (1/s) sum_t x_t:
//   logits = x-bar W_freq^T + b_freq        (K-1 values, one per level 1..K-1)
//   mask   = (logits > 0)                   forward: hard {0, 1}; backward: straight-through
// Level 0 is always active; level l >= 1 is active this chunk iff mask[l-1] = 1. Both of its
// variants are computed and its output is the selection
//   Y^l = m Y^l_active + (1 - m) Y^l_frozen,
// exactly one of them for m in {0, 1}, so the level's parameters, context and error buffer behave
// as under a fixed pulse equal to the mask. The gate learns through dL/dm = <gY^l, Y_active -
// Y_frozen> (what switching the level would change), passed straight through to the logit.
// Every step mirrors the tape ops traced_cms_forward records (the same kernels, the same order of
// accumulation), so the hand-written and tape paths agree to the last bit here too.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/conductor.hpp"
#include "nl/mag_config.hpp"

namespace nl {

template <typename T>
struct GateForward {
  std::vector<T> mean_row;  // 1 x s, every entry 1/s (the constant the tape multiplies X by)
  std::vector<T> x_bar;     // 1 x d
  std::vector<T> logits;    // K-1, after + b_freq
  std::vector<T> mask;      // K-1, each 0 or 1
};

template <typename T>
[[nodiscard]] GateForward<T> frequency_gate_forward(std::size_t s, std::size_t d, std::span<const T> x,
                                                    std::span<const T> w_freq, std::span<const T> b_freq);

// Level 0 always, level l >= 1 where mask[l-1] = 1.
template <typename T>
[[nodiscard]] Pulse gate_pulse(const GateForward<T>& g);

// Y = m y_active + (1 - m) y_frozen (n values).
template <typename T>
[[nodiscard]] std::vector<T> mix_level(std::span<const T> y_active, std::span<const T> y_frozen, T m);

// Backward of mix_level for the adjoint g of Y: writes the adjoints of y_active and y_frozen and
// returns dL/dm.
template <typename T>
[[nodiscard]] T mix_level_backward(std::span<const T> y_active, std::span<const T> y_frozen, T m,
                                   std::span<const T> g, std::vector<T>& g_active, std::vector<T>& g_frozen);

// Backward of frequency_gate_forward for the adjoint of the mask (straight-through): adds into
// gW_freq, gb_freq and gX (s x d).
template <typename T>
void frequency_gate_backward(std::size_t s, std::size_t d, std::span<const T> w_freq, const GateForward<T>& f,
                             std::span<const T> g_mask, std::span<T> g_w_freq, std::span<T> g_b_freq,
                             std::span<T> g_x);

}  // namespace nl
