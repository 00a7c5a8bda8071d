#pragma once
// APX 13.4.1-13.4.2: turn a planner decision into stream tasks.
//
// route_kernel_with_memory plans the kernel over its tensors' tiers, then brings each managed
// tensor to the tier the compute needs (Gpu -> Vram, otherwise Ram) through the memory manager
// and puts the compute on Gpu (target Gpu) or Cpu (Cpu / CpuFallback). Every task costs 1.
// It enqueues in this order:
//   1. prefetch:<id> (SsdPrefetch) for every SSD tensor,
//   2. transfers: move:ssd->ram:<id> (Cpu), move:ssd->vram:<id> (Gpu), move:ram->vram:<id> (Gpu),
//      move:vram->ram:<id> (Cpu), one per move that succeeded,
//   3. the compute task.
// When a move is refused, degraded by the memory manager (VRAM unavailable) or fails, the bundle
// becomes CpuFallback with the reason extended by "; degraded to CPU because VRAM is unavailable"
// or "; degraded to CPU because memory move failed"; the remaining tensors (and any already
// brought to VRAM) are then prepared for RAM and the compute goes to the CPU stream.
// Ids unknown to the memory manager count as Ram for planning and are not moved.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/memory_types.hpp"
#include "hybrid/planner/execution_planner.hpp"
#include "hybrid/streams/async_executor.hpp"

namespace hybrid {

inline constexpr const char* kDegradedVramUnavailable = "degraded to CPU because VRAM is unavailable";
inline constexpr const char* kDegradedMoveFailed = "degraded to CPU because memory move failed";

struct RoutedBundle {
  ExecutionTarget plan_target = ExecutionTarget::cpu;
  std::vector<std::uint64_t> submitted_task_ids;  // enqueue order
  std::string reason;
};

[[nodiscard]] RoutedBundle route_kernel_with_memory(AsyncExecutor& exec, HybridMemoryManager& mem,
                                                    const KernelProfile& kernel,
                                                    std::span<const std::string> tensor_ids,
                                                    const MemorySnapshot& snapshot, bool gpu_available);

}  // namespace hybrid
