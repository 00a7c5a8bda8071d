#pragma once
// A whole batch-loop run described as data (for `atenia simulate` and tests): tensors with real
// bytes, graph nodes, one memory snapshot per tick. run_batch_scenario registers the tensors in
// a memory manager the caller built (cache directory + VRAM adapter of its choice), builds the
// graph and runs BatchLoopRunner::run_ticks_with_plans. Same scenario, same output.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "hybrid/graph/batch_loop.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/offload/smart_offload_engine.hpp"
#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

struct ScenarioTensor {
  std::string id;
  std::uint64_t bytes = 0;  // payload length; contents are scenario_payload(id, bytes)
  MemoryTier initial = MemoryTier::ram;
};

struct ScenarioNode {
  KernelProfile kernel;
  std::vector<std::string> tensor_ids;  // each must name a ScenarioTensor
};

struct BatchScenario {
  std::vector<ScenarioTensor> tensors;
  std::vector<ScenarioNode> nodes;
  std::vector<MemorySnapshot> ticks;  // tick i plans and offloads against ticks[i]
  bool gpu_available = false;
  bool advanced_streams = true;
  OffloadConfig offload;
};

// Largest payload a scenario tensor may ask for (the bytes are really allocated and written).
inline constexpr std::uint64_t kMaxScenarioTensorBytes = 64ULL * 1024 * 1024;

// The deterministic bytes of a scenario tensor, so callers can check them after the run.
[[nodiscard]] Bytes scenario_payload(std::string_view id, std::uint64_t bytes);

// invalid_argument: empty or duplicate tensor id, a node naming an unknown tensor, a payload
// above kMaxScenarioTensorBytes. Registration failures (SSD blob writes) come back as errors
// too. An offload failure during the run is not an Error: it is
// BatchRunResult::error, with the timeline up to that point.
[[nodiscard]] common::Result<BatchRunResult> run_batch_scenario(const BatchScenario& scenario,
                                                                HybridMemoryManager& mem);

// Lines describing per-tick plans, in tick then node order:
//   TICK_PLAN tick=<t> summary=Snapshot pressures: vram=<p>, ram=<p>
//   NODE_PLAN tick=<t> node=<id> target=<Cpu|Gpu|CpuFallback> reason=<reason>
[[nodiscard]] std::vector<std::string> describe_tick_plans(const std::vector<TickResult>& ticks);
// The same, with " name=<kernel name>" after node=<id> (names[id]).
[[nodiscard]] std::vector<std::string> describe_tick_plans(const std::vector<TickResult>& ticks,
                                                           const std::vector<std::string>& names);

}  // namespace hybrid
