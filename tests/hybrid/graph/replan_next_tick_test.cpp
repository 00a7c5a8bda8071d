#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

#include "hybrid/graph/batch_loop.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {

const Bytes kT1{3, 1, 4, 1, 5, 9, 2, 6};

// Tick 0 low pressure, tick 1 both tiers at 0.99, tick 2 low again.
BatchRunResult run_scenario(const std::string& cache_dir) {
  HybridMemoryManager mem(cache_dir, std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("t1", kT1, MemoryTier::ram).ok());
  ReconfigurableGraph graph;
  graph.add_node(kernel("heavy", KernelKind::compute_heavy), {"t1"});
  BatchLoopRunner runner(SmartOffloadEngine(OffloadConfig{.cooldown_ticks = 0, .max_actions_per_tick = 1}),
                         GraphExecutor(StreamConfig{true}));
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<MemorySnapshot> snaps{pressure_snapshot(0.10F, 0.10F), pressure_snapshot(0.99F, 0.99F),
                                          pressure_snapshot(0.10F, 0.10F)};
  BatchRunResult result = runner.run_ticks_with_plans(graph, exec, mem, snaps, true);
  // Tick 2 brought t1 back from SSD for the CPU compute, bytes intact.
  CHECK(mem.get_tier("t1") == MemoryTier::ram);
  const auto* ram = as_ram(mem.backing("t1"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == kT1);
  return result;
}

}  // namespace

TEST_CASE("replan_next_tick: offload_changes_next_tick_placement") {
  testsupport::TempDir dir;
  const BatchRunResult r = run_scenario(dir.path());
  REQUIRE_FALSE(r.error.has_value());
  REQUIRE(r.ticks.size() == 3);
  CHECK(r.ticks[0].tick == 0);
  CHECK(r.ticks[2].tick == 2);
  CHECK(r.ticks[0].plan.placements[0].target == ExecutionTarget::gpu);
  CHECK(r.ticks[1].plan.placements[0].target == ExecutionTarget::cpu_fallback);
  const auto& late = r.ticks[2].plan.placements[0];
  CHECK((late.target == ExecutionTarget::cpu || late.target == ExecutionTarget::cpu_fallback));
  std::string reason = late.reason;
  std::ranges::transform(reason, reason.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  CHECK(reason.find("ssd") != std::string::npos);
  CHECK(has_line_containing(r.timeline, "OFFLOAD_PLAN tick=1 actions=1 reason=VRAM and RAM pressure high"));
  CHECK(has_line_containing(r.timeline, "OFFLOAD_APPLY tick=1 ok"));
  // The tick-1 graph run brought t1 back from VRAM for the CPU fallback; tick 2 prefetched it from SSD.
  CHECK(has_line_containing(r.timeline, "ENQUEUE stream=Cpu", "name=move:vram->ram:t1"));
  CHECK(has_line_containing(r.timeline, "ENQUEUE stream=SsdPrefetch", "name=prefetch:t1"));
  CHECK(r.ticks[1].plan.snapshot_summary == "Snapshot pressures: vram=0.9900, ram=0.9900");
}

TEST_CASE("replan_next_tick: the same scenario gives the same timeline and plans") {
  testsupport::TempDir a;
  testsupport::TempDir b;
  const BatchRunResult ra = run_scenario(a.path());
  const BatchRunResult rb = run_scenario(b.path());
  CHECK(ra.timeline == rb.timeline);
  REQUIRE(ra.ticks.size() == rb.ticks.size());
  for (std::size_t i = 0; i < ra.ticks.size(); ++i) {
    CHECK(ra.ticks[i].plan.snapshot_summary == rb.ticks[i].plan.snapshot_summary);
    CHECK(ra.ticks[i].plan.placements[0].reason == rb.ticks[i].plan.placements[0].reason);
  }
}
