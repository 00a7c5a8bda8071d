#include "hybrid/autograd/backward_placement.hpp"

#include <algorithm>

namespace hybrid {

ExecutionTarget decide_backward_target(ExecutionTarget forward_target, std::span<const MemoryTier> grad_tiers,
                                       const MemorySnapshot& /*snapshot*/, bool gpu_available) {
  const bool all_vram = std::ranges::all_of(grad_tiers, [](MemoryTier t) { return t == MemoryTier::vram; });
  if (forward_target == ExecutionTarget::gpu && all_vram && gpu_available) return ExecutionTarget::gpu;
  return ExecutionTarget::cpu;
}

MemoryTier gradient_tier_for(ExecutionTarget target) {
  return target == ExecutionTarget::gpu ? MemoryTier::vram : MemoryTier::ram;
}

common::Status prepare_gradients(HybridMemoryManager& mem, std::span<const TensorGrad> grads,
                                 ExecutionTarget target, const MemorySnapshot& snapshot) {
  const MemoryTier desired = gradient_tier_for(target);
  for (const auto& grad : grads) {
    if (mem.get_tier(grad.id) == desired) continue;
    auto plan = mem.plan_move(grad.id, desired, snapshot);
    if (!plan) return plan.error();
    if (plan->to != desired) return common::Error::unsupported(plan->reason);
    if (auto applied = mem.apply_move(grad.id, *plan); !applied) return applied;
  }
  return {};
}

std::vector<TensorGrad> all_grads(const AutogradNode& node) {
  std::vector<TensorGrad> grads = node.input_grads;
  grads.insert(grads.end(), node.output_grads.begin(), node.output_grads.end());
  return grads;
}

}  // namespace hybrid
