#include "hybrid/streams/stream_router.hpp"

#include <optional>

namespace hybrid {

namespace {

constexpr std::uint64_t kTaskCost = 1;

StreamKind compute_stream(ExecutionTarget target) {
  return target == ExecutionTarget::gpu ? StreamKind::gpu : StreamKind::cpu;
}

// One routing call's memory preparation: moves tensors and enqueues their transfer tasks.
class MemoryPreparation {
 public:
  MemoryPreparation(AsyncExecutor& exec, HybridMemoryManager& mem, const MemorySnapshot& snapshot,
                    RoutedBundle& bundle)
      : exec_(exec), mem_(mem), snapshot_(snapshot), bundle_(bundle) {}

  [[nodiscard]] bool degraded() const { return degraded_; }

  // The tier the compute needs now: Vram while the GPU plan holds, Ram otherwise.
  [[nodiscard]] MemoryTier required_tier() const {
    return (!degraded_ && bundle_.plan_target == ExecutionTarget::gpu) ? MemoryTier::vram : MemoryTier::ram;
  }

  void bring_to_required_tier(const std::string& id) {
    const std::optional<MemoryTier> current = mem_.get_tier(id);
    if (!current) return;
    const MemoryTier required = required_tier();
    const bool from_ssd = *current == MemoryTier::ssd;
    const bool ram_to_vram = *current == MemoryTier::ram && required == MemoryTier::vram;
    const bool vram_to_ram = *current == MemoryTier::vram && required == MemoryTier::ram;
    if (!from_ssd && !ram_to_vram && !vram_to_ram) return;

    auto plan = mem_.plan_move(id, required, snapshot_);
    if (!plan) {
      degrade(kDegradedMoveFailed);
      return;
    }
    const MemoryTier reached = plan->to;
    if (reached != required) {
      degrade(kDegradedVramUnavailable);
      // A degraded plan from SSD still lands in RAM, which the CPU compute now needs.
      if (!(from_ssd && reached == MemoryTier::ram)) return;
    }
    if (auto applied = mem_.apply_move(id, *plan); !applied) {
      degrade(kDegradedMoveFailed);
      return;
    }
    const StreamKind stream = reached == MemoryTier::vram ? StreamKind::gpu : StreamKind::cpu;
    const std::string name = std::string("move:") + to_string(*current) + "->" + to_string(reached) + ":" + id;
    TaskKind move = TaskKind::transfer(name);
    move.tensor = id;
    move.from = to_string(*current);
    move.to = to_string(reached);
    bundle_.submitted_task_ids.push_back(exec_.submit(stream, std::move(move), kTaskCost, {id}));
  }

 private:
  void degrade(const char* why) {
    if (degraded_) return;
    degraded_ = true;
    bundle_.plan_target = ExecutionTarget::cpu_fallback;
    bundle_.reason += "; ";
    bundle_.reason += why;
  }

  AsyncExecutor& exec_;
  HybridMemoryManager& mem_;
  const MemorySnapshot& snapshot_;
  RoutedBundle& bundle_;
  bool degraded_ = false;
};

}  // namespace

RoutedBundle route_kernel_with_memory(AsyncExecutor& exec, HybridMemoryManager& mem, const KernelProfile& kernel,
                                      std::span<const std::string> tensor_ids, const MemorySnapshot& snapshot,
                                      bool gpu_available) {
  std::vector<MemoryTier> tiers;
  tiers.reserve(tensor_ids.size());
  for (const auto& id : tensor_ids) tiers.push_back(mem.get_tier(id).value_or(MemoryTier::ram));

  const ExecutionPlan plan = plan_execution(kernel, tiers, snapshot, gpu_available);
  RoutedBundle bundle{plan.target, {}, plan.reason};
  MemoryPreparation prep(exec, mem, snapshot, bundle);

  for (const auto& id : tensor_ids) {
    if (mem.get_tier(id) == MemoryTier::ssd && prep.required_tier() != MemoryTier::ssd) {
      TaskKind prefetch = TaskKind::io("prefetch:" + id);
      prefetch.tensor = id;
      prefetch.from = to_string(MemoryTier::ssd);
      prefetch.to = to_string(MemoryTier::ram);
      bundle.submitted_task_ids.push_back(exec.submit(StreamKind::ssd_prefetch, std::move(prefetch), kTaskCost, {id}));
    }
  }
  for (const auto& id : tensor_ids) prep.bring_to_required_tier(id);
  // Degradation part-way leaves earlier tensors in VRAM; the CPU compute needs them in RAM.
  if (prep.degraded()) {
    for (const auto& id : tensor_ids) {
      if (mem.get_tier(id) == MemoryTier::vram) prep.bring_to_required_tier(id);
    }
  }

  const ExecutionTarget effective = prep.degraded() ? ExecutionTarget::cpu_fallback : plan.target;
  bundle.submitted_task_ids.push_back(exec.submit(compute_stream(effective), TaskKind::compute(kernel.name), kTaskCost,
                                                 std::vector<std::string>(tensor_ids.begin(), tensor_ids.end())));
  return bundle;
}

}  // namespace hybrid

