#pragma once
// The kernel pairs libgpu provides through nl's KernelPair seam, on a chosen backend (the CPU
// launcher or the CUDA launcher): the front-end (projections, gates, nrm) stays on the host in
// nl's code; the rule's recurrence, forward and backward, runs as kernel bodies on the backend.
#include <memory>

#include "gpu/backend.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_config.hpp"

namespace gpu {

// Rules with kernel bodies: all nine.
[[nodiscard]] bool has_kernel_pair(nl::RuleKind kind);

// The pair for `kind` on `backend` (which must outlive it); null for a rule without kernel bodies.
[[nodiscard]] std::unique_ptr<nl::KernelPair> make_kernel_pair(nl::RuleKind kind, Backend& backend);

}  // namespace gpu
