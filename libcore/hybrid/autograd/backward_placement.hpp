#pragma once
// APX 13.7.0: where a node's backward runs, and bringing its gradients there.
#include <span>

#include "hybrid/autograd/autograd_graph.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/memory_types.hpp"

namespace hybrid {

// Gpu only when the forward ran on Gpu, the GPU is available and every gradient is in VRAM
// (no implicit transfers); Cpu otherwise. The snapshot is not consulted by the v1 rule.
[[nodiscard]] ExecutionTarget decide_backward_target(ExecutionTarget forward_target,
                                                     std::span<const MemoryTier> grad_tiers,
                                                     const MemorySnapshot& snapshot, bool gpu_available);

// The tier a backward on `target` needs its gradients in: Vram for Gpu, Ram otherwise.
[[nodiscard]] MemoryTier gradient_tier_for(ExecutionTarget target);

// Moves every gradient to gradient_tier_for(target); stops at the first common::Error (unknown ids
// fail with invalid_argument "Tensor not registered"; a plan the memory manager degraded, e.g. VRAM
// unavailable, fails with unsupported carrying the plan's reason, before any move).
[[nodiscard]] common::Status prepare_gradients(HybridMemoryManager& mem, std::span<const TensorGrad> grads,
                                               ExecutionTarget target, const MemorySnapshot& snapshot);

// input_grads then output_grads.
[[nodiscard]] std::vector<TensorGrad> all_grads(const AutogradNode& node);

}  // namespace hybrid
