#pragma once
// libgpu-internal: the pair families behind make_kernel_pair (kernel_pairs.cpp).
#include <memory>

#include "gpu/backend.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_config.hpp"

namespace gpu {

// DeltaRule, TitansLMM, HebbianRule, AtlasOmega (bodies/matrix_rules.hpp).
[[nodiscard]] std::unique_ptr<nl::KernelPair> make_matrix_rule_pair(nl::RuleKind kind, Backend& backend);
// Moneta, YAAD, MEMORA (bodies/mlp_rules.hpp).
[[nodiscard]] std::unique_ptr<nl::KernelPair> make_mlp_rule_pair(nl::RuleKind kind, Backend& backend);
// LatticeOSR (bodies/lattice.hpp).
[[nodiscard]] std::unique_ptr<nl::KernelPair> make_lattice_pair(Backend& backend);
// Trellis (bodies/trellis.hpp).
[[nodiscard]] std::unique_ptr<nl::KernelPair> make_trellis_pair(Backend& backend);

}  // namespace gpu
