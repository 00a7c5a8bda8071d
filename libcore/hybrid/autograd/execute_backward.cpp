#include "hybrid/autograd/execute_backward.hpp"

#include <fmt/format.h>

#include "hybrid/autograd/backward_placement.hpp"
#include "hybrid/memory/move_error.hpp"

namespace hybrid {

namespace {

std::vector<MemoryTier> tiers_of(const std::vector<TensorGrad>& grads) {
  std::vector<MemoryTier> tiers;
  tiers.reserve(grads.size());
  for (const auto& g : grads) tiers.push_back(g.tier);
  return tiers;
}

std::uint64_t submit_backward_task(AsyncExecutor& exec, NodeId node_id, ExecutionTarget target) {
  const StreamKind stream = target == ExecutionTarget::gpu ? StreamKind::gpu : StreamKind::cpu;
  return exec.submit(stream, TaskKind::compute(fmt::format("backward:node{}", node_id)), 1);
}

// Moves each gradient to `target`'s tier, recording what happened. True when no move failed.
bool move_with_records(HybridMemoryManager& mem, const std::vector<TensorGrad>& grads, ExecutionTarget target,
                       const MemorySnapshot& snapshot, std::vector<GradMoveRecord>& records) {
  const MemoryTier desired = gradient_tier_for(target);
  bool all_ok = true;
  for (const auto& grad : grads) {
    const std::optional<MemoryTier> current = mem.get_tier(grad.id);
    if (!current) {
      records.push_back(GradMoveRecord::skipped(grad.id, kGradSkipNotRegistered));
      continue;
    }
    if (*current == desired) {
      records.push_back(GradMoveRecord::skipped(grad.id, kGradSkipAlreadyThere));
      continue;
    }
    records.push_back(GradMoveRecord::planned(grad.id, *current, desired));
    auto plan = mem.plan_move(grad.id, desired, snapshot);
    if (!plan) {
      records.push_back(GradMoveRecord::failed(grad.id, move_error_text(plan.error())));
      all_ok = false;
      continue;
    }
    if (plan->to != desired) {  // the memory manager degraded it (VRAM unavailable)
      records.push_back(GradMoveRecord::failed(grad.id, plan->reason));
      all_ok = false;
      continue;
    }
    if (auto applied = mem.apply_move(grad.id, *plan); !applied) {
      records.push_back(GradMoveRecord::failed(grad.id, move_error_text(applied.error())));
      all_ok = false;
      continue;
    }
    records.push_back(GradMoveRecord::applied(grad.id, *current, desired));
  }
  return all_ok;
}

}  // namespace

void execute_backward(AsyncExecutor& exec, HybridMemoryManager& mem, const AutogradGraph& graph,
                      const MemorySnapshot& snapshot, bool gpu_available) {
  const auto& nodes = graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const AutogradNode& node = *it;
    const std::vector<TensorGrad> grads = all_grads(node);
    ExecutionTarget target = decide_backward_target(node.forward_target, tiers_of(grads), snapshot, gpu_available);
    if (target == ExecutionTarget::gpu) {
      if (!prepare_gradients(mem, grads, ExecutionTarget::gpu, snapshot)) {
        exec.record(fmt::format("BACKWARD_FALLBACK node={} from=Gpu to=Cpu", node.node_id));
        target = ExecutionTarget::cpu;
      }
    }
    if (target != ExecutionTarget::gpu) {
      (void)prepare_gradients(mem, grads, target, snapshot);  // best-effort by design (13.7.0)
    }
    submit_backward_task(exec, node.node_id, target);
    exec.record(fmt::format("BACKWARD node={} target={} reason={}", node.node_id, to_string(target), node.reason));
  }
}

AutogradTrace execute_backward_with_trace(AsyncExecutor& exec, HybridMemoryManager& mem, const AutogradGraph& graph,
                                          const MemorySnapshot& snapshot, bool gpu_available) {
  AutogradTrace trace;
  const auto& nodes = graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const AutogradNode& node = *it;
    const std::vector<TensorGrad> grads = all_grads(node);
    AutogradNodeTrace nt;
    nt.node_id = node.node_id;
    nt.forward_target = node.forward_target;
    nt.requested_backward_target =
        decide_backward_target(node.forward_target, tiers_of(grads), snapshot, gpu_available);
    nt.final_backward_target = nt.requested_backward_target;
    nt.reason = node.reason;

    const bool moved = move_with_records(mem, grads, nt.requested_backward_target, snapshot, nt.moves);
    const bool fallback = nt.requested_backward_target == ExecutionTarget::gpu && !moved;
    if (fallback) {
      nt.final_backward_target = ExecutionTarget::cpu;
      nt.reason = nt.reason.empty() ? std::string(kGradGpuFallback) : nt.reason + "; " + kGradGpuFallback;
      (void)move_with_records(mem, grads, ExecutionTarget::cpu, snapshot, nt.moves);
    }

    submit_backward_task(exec, node.node_id, nt.final_backward_target);
    exec.record(fmt::format("AUTOGRAD node={} target={} moves={} fallback={}", node.node_id,
                            to_string(nt.final_backward_target), nt.moves.size(), fallback ? 1 : 0));
    trace.nodes.push_back(std::move(nt));
  }
  return trace;
}

}  // namespace hybrid
