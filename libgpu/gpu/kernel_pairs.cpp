#include "gpu/kernel_pairs.hpp"

#include "gpu/rule_pairs.hpp"

namespace gpu {

using nl::RuleKind;

bool has_kernel_pair(RuleKind kind) {
  switch (kind) {
    case RuleKind::delta:
    case RuleKind::titans:
    case RuleKind::hebbian:
    case RuleKind::atlas:
    case RuleKind::moneta:
    case RuleKind::yaad:
    case RuleKind::memora:
    case RuleKind::lattice:
    case RuleKind::trellis: return true;
  }
  return false;
}

std::unique_ptr<nl::KernelPair> make_kernel_pair(RuleKind kind, Backend& backend) {
  switch (kind) {
    case RuleKind::delta:
    case RuleKind::titans:
    case RuleKind::hebbian:
    case RuleKind::atlas: return make_matrix_rule_pair(kind, backend);
    case RuleKind::moneta:
    case RuleKind::yaad:
    case RuleKind::memora: return make_mlp_rule_pair(kind, backend);
    case RuleKind::lattice: return make_lattice_pair(backend);
    case RuleKind::trellis: return make_trellis_pair(backend);
  }
  return nullptr;
}

}  // namespace gpu
