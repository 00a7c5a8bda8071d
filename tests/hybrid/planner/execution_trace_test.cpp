#include <doctest/doctest.h>

#include <vector>

#include "hybrid/planner/execution_planner.hpp"
#include "hybrid/planner/snapshot_builders.hpp"

using namespace hybrid;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {
const std::vector<MemoryTier> kTraceRam{MemoryTier::ram};
}

TEST_CASE("execution_trace: trace_records_rule_order") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kTraceRam, pressure_snapshot(0.2F, 0.1F), false);
  REQUIRE(plan.trace.has_value());
  CHECK(plan.trace->evaluated_rules == std::vector<DecisionRule>{DecisionRule::gpu_not_available});
  CHECK(plan.trace->winning_rule == DecisionRule::gpu_not_available);
  CHECK(plan.trace->kernel_name == "mm");
}

TEST_CASE("execution_trace: trace_records_multiple_rules_until_match") {
  auto plan = plan_execution(kernel("tiny", KernelKind::small), kTraceRam, pressure_snapshot(0.2F, 0.1F), true);
  REQUIRE(plan.trace.has_value());
  CHECK(plan.trace->evaluated_rules ==
        std::vector<DecisionRule>{DecisionRule::gpu_not_available, DecisionRule::kernel_not_gpu_friendly});
  CHECK(plan.trace->winning_rule == DecisionRule::kernel_not_gpu_friendly);
}

TEST_CASE("execution_trace: SSD and VRAM-pressure wins record the rules before them") {
  const std::vector<MemoryTier> ssd{MemoryTier::ssd};
  auto on_ssd = plan_execution(kernel("mm", KernelKind::compute_heavy), ssd, pressure_snapshot(0.2F, 0.1F), true);
  REQUIRE(on_ssd.trace.has_value());
  CHECK(on_ssd.trace->evaluated_rules.size() == 3);
  CHECK(on_ssd.trace->winning_rule == DecisionRule::tensor_on_ssd);
  auto hot = plan_execution(kernel("mm", KernelKind::compute_heavy), kTraceRam, pressure_snapshot(0.95F, 0.1F), true);
  REQUIRE(hot.trace.has_value());
  CHECK(hot.trace->evaluated_rules.size() == 4);
  CHECK(hot.trace->winning_rule == DecisionRule::high_vram_pressure);
  CHECK(hot.trace->target == ExecutionTarget::cpu_fallback);
}

TEST_CASE("execution_trace: trace_gpu_preferred_case") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kTraceRam, pressure_snapshot(0.2F, 0.1F), true);
  REQUIRE(plan.trace.has_value());
  CHECK(plan.trace->evaluated_rules ==
        std::vector<DecisionRule>{DecisionRule::gpu_not_available, DecisionRule::kernel_not_gpu_friendly,
                                  DecisionRule::tensor_on_ssd, DecisionRule::high_vram_pressure,
                                  DecisionRule::gpu_preferred});
  CHECK(plan.trace->winning_rule == DecisionRule::gpu_preferred);
  CHECK(plan.trace->target == ExecutionTarget::gpu);
}

TEST_CASE("execution_trace: trace_reason_matches_plan") {
  auto plan = plan_execution(kernel("mm", KernelKind::compute_heavy), kTraceRam, pressure_snapshot(0.2F, 0.1F), true);
  REQUIRE(plan.trace.has_value());
  CHECK(plan.trace->reason == plan.reason);
  CHECK(plan.trace->target == plan.target);
}
