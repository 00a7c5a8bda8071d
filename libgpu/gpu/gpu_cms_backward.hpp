#pragma once
// gpu_cms_backward: the MAG model's hand-written backward (nl::cms_backward's math) with the
// expensive parts on a backend: every active level's recurrence through its kernel pair and SWA
// through its kernel bodies. The output head, the projections and the frozen levels' reads stay
// on the host (nl code). The seed keeps this as the production path and the tape as its oracle.
#include "common/result.hpp"
#include "gpu/backend.hpp"
#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"

namespace gpu {

// `f` must come from nl::cms_forward<float> with the same cfg and params, run from `context`
// (the context memory before the chunk). Each active level's forward is re-run through its pair
// for the pair's cache. Fails (invalid_argument) when the rule has no kernel pair, and with
// GpuError's message when the backend fails.
[[nodiscard]] common::Result<nl::MagGradients<float>> gpu_cms_backward(Backend& backend, const nl::MagConfig& cfg,
                                                                      const nl::MagParams<float>& params,
                                                                      const nl::MagForward<float>& f,
                                                                      const nl::ContextMemory<float>& context);

}  // namespace gpu
