#include "hybrid/planner/execution_planner.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "hybrid/planner/snapshot_builders.hpp"

using namespace hybrid;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {
const std::vector<MemoryTier> kRam{MemoryTier::ram, MemoryTier::ram};
}

TEST_CASE("kernel_model: only ComputeHeavy and MemoryBound are GPU friendly") {
  CHECK(kernel("k", KernelKind::compute_heavy).is_gpu_friendly());
  CHECK(kernel("k", KernelKind::memory_bound).is_gpu_friendly());
  CHECK_FALSE(kernel("k", KernelKind::small).is_gpu_friendly());
  CHECK_FALSE(kernel("k", KernelKind::serial).is_gpu_friendly());
}

TEST_CASE("execution_planner: cpu_when_gpu_not_available") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kRam, pressure_snapshot(0.2F, 0.1F), false);
  CHECK(plan.target == ExecutionTarget::cpu_fallback);
  CHECK(plan.reason == "GPU not available");
}

TEST_CASE("execution_planner: cpu_when_kernel_small") {
  auto plan = plan_execution(kernel("tiny", KernelKind::small), kRam, pressure_snapshot(0.2F, 0.1F), true);
  CHECK(plan.target == ExecutionTarget::cpu);
  CHECK(plan.reason == "Kernel not suitable for GPU execution");
  auto serial = plan_execution(kernel("scan", KernelKind::serial), kRam, pressure_snapshot(0.2F, 0.1F), true);
  CHECK(serial.target == ExecutionTarget::cpu);
}

TEST_CASE("execution_planner: cpu_when_tensor_on_ssd") {
  const std::vector<MemoryTier> tiers{MemoryTier::ram, MemoryTier::ssd};
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), tiers, pressure_snapshot(0.2F, 0.1F), true);
  CHECK(plan.target == ExecutionTarget::cpu);
  CHECK(plan.reason == "Tensor resides on SSD");
}

TEST_CASE("execution_planner: cpu_fallback_when_vram_pressure_high") {
  auto plan = plan_execution(kernel("mm", KernelKind::memory_bound), kRam, pressure_snapshot(0.95F, 0.1F), true);
  CHECK(plan.target == ExecutionTarget::cpu_fallback);
  CHECK(plan.reason == "VRAM pressure too high");
}

TEST_CASE("execution_planner: VRAM pressure exactly at 0.90 still prefers GPU (rule is strictly above)") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kRam, pressure_snapshot(0.90F, 0.1F), true);
  CHECK(plan.target == ExecutionTarget::gpu);
}

TEST_CASE("execution_planner: gpu_when_all_conditions_good") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kRam, pressure_snapshot(0.2F, 0.1F), true);
  CHECK(plan.target == ExecutionTarget::gpu);
  CHECK(plan.reason == "GPU execution preferred");
}

TEST_CASE("execution_planner: absent VRAM pressure counts as zero") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kRam, empty_memory_snapshot(), true);
  CHECK(plan.target == ExecutionTarget::gpu);
}

TEST_CASE("execution_planner: rules apply in order (GPU absent beats SSD tensor and high pressure)") {
  const std::vector<MemoryTier> tiers{MemoryTier::ssd};
  auto plan = plan_execution(kernel("tiny", KernelKind::small), tiers, pressure_snapshot(0.99F, 0.99F), false);
  CHECK(plan.reason == "GPU not available");
  auto plan2 = plan_execution(kernel("tiny", KernelKind::small), tiers, pressure_snapshot(0.99F, 0.99F), true);
  CHECK(plan2.reason == "Kernel not suitable for GPU execution");
  auto plan3 = plan_execution(kernel("mm", KernelKind::compute_heavy), tiers, pressure_snapshot(0.99F, 0.99F), true);
  CHECK(plan3.reason == "Tensor resides on SSD");
}

TEST_CASE("kernel_model: parse_kernel_kind reads both spellings and rejects others") {
  CHECK(parse_kernel_kind("ComputeHeavy") == KernelKind::compute_heavy);
  CHECK(parse_kernel_kind("memory_bound") == KernelKind::memory_bound);
  CHECK(parse_kernel_kind("Small") == KernelKind::small);
  CHECK(parse_kernel_kind("serial") == KernelKind::serial);
  CHECK_FALSE(parse_kernel_kind("small ").has_value());
  CHECK_FALSE(parse_kernel_kind("").has_value());
  for (KernelKind k : {KernelKind::compute_heavy, KernelKind::memory_bound, KernelKind::small, KernelKind::serial}) {
    CHECK(parse_kernel_kind(to_string(k)) == k);
  }
}
