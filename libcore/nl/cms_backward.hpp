#pragma once
// cms_backward: the hand-written backward of cms_forward (nltrain-math §3), kept as the oracle
// the tape path is checked against. Active levels return their parameter gradients; a frozen
// level returns zero and its gradient (only W_Q^l's, through the read) goes to `error`, for the
// caller's error buffer; its read's gradient reaches X (and E, W_Q...) in this step.
#include <vector>

#include "nl/cms_forward.hpp"
#include "nl/level_params.hpp"
#include "nl/mag_params.hpp"

namespace nl {

template <typename T>
struct MagGradients {
  MagParams<T> params;                // frozen levels: all zero
  std::vector<LevelParams<T>> error;  // per level: the frozen level's contribution (active: zero)
};

// `f` must come from cms_forward with the same cfg and params.
template <typename T>
[[nodiscard]] MagGradients<T> cms_backward(const MagConfig& cfg, const MagParams<T>& params, const MagForward<T>& f);
// The same gradients, moving the levels' rule caches out of `f` instead of copying them (the
// caller reads nothing of f.levels afterwards; the rest of f, context_after included, stays).
template <typename T>
[[nodiscard]] MagGradients<T> cms_backward_consuming(const MagConfig& cfg, const MagParams<T>& params, MagForward<T>& f);

}  // namespace nl
