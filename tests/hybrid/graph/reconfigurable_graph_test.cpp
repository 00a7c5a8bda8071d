#include "hybrid/graph/reconfigurable_graph.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "hybrid/planner/snapshot_builders.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::kernel;
using hybrid::testing::pressure_snapshot;

namespace {
std::string lower(std::string s) {
  std::ranges::transform(s, s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
}  // namespace

TEST_CASE("reconfigurable_graph: ids are assigned from 0 and legacy tensor ids are synthesized") {
  ReconfigurableGraph g;
  CHECK(g.add_node(kernel("a", KernelKind::small), {MemoryTier::ram, MemoryTier::vram}) == 0);
  CHECK(g.add_node(kernel("b", KernelKind::small), {MemoryTier::ram}) == 1);
  REQUIRE(g.nodes().size() == 2);
  CHECK(g.nodes()[0].tensor_ids == std::vector<std::string>{"t0_0", "t0_1"});
  CHECK(g.nodes()[1].tensor_ids == std::vector<std::string>{"t1_0"});
}

TEST_CASE("reconfigurable_graph: add_node_with_tensors pairs ids and tiers up to the shorter list") {
  ReconfigurableGraph g;
  g.add_node_with_tensors(kernel("a", KernelKind::small), {"x", "y", "z"}, {MemoryTier::ram, MemoryTier::ssd});
  CHECK(g.nodes()[0].tensor_ids == std::vector<std::string>{"x", "y"});
  CHECK(g.nodes()[0].tensor_tiers.size() == 2);
}

TEST_CASE("reconfigurable_graph: graph_can_replan_with_different_snapshots") {
  ReconfigurableGraph g;
  const NodeId heavy = g.add_node(kernel("heavy", KernelKind::compute_heavy), {MemoryTier::ram});
  const NodeId small = g.add_node(kernel("small", KernelKind::small), {MemoryTier::ram});
  const GraphPlacementPlan a = g.plan_for_snapshot(pressure_snapshot(0.2F, 0.2F), true);
  const GraphPlacementPlan b = g.plan_for_snapshot(pressure_snapshot(0.96F, 0.2F), true);
  REQUIRE(a.placements.size() == 2);
  REQUIRE(b.placements.size() == 2);
  CHECK(a.placements[0].node_id == heavy);
  CHECK(a.placements[1].node_id == small);
  CHECK(a.placements[0].target == ExecutionTarget::gpu);
  CHECK(a.placements[1].target == ExecutionTarget::cpu);
  CHECK(b.placements[0].target == ExecutionTarget::cpu_fallback);
  CHECK(b.placements[1].target == ExecutionTarget::cpu);
  CHECK(a.placements[0].target != b.placements[0].target);
  for (const auto& p : a.placements) CHECK_FALSE(p.reason.empty());
  for (const auto& p : b.placements) CHECK_FALSE(p.reason.empty());
  CHECK(g.nodes().size() == 2);  // planning leaves the graph as it was
}

TEST_CASE("reconfigurable_graph: tensor_on_ssd_forces_cpu_in_plan") {
  ReconfigurableGraph g;
  g.add_node(kernel("heavy", KernelKind::compute_heavy), {MemoryTier::ram, MemoryTier::ssd});
  const GraphPlacementPlan plan = g.plan_for_snapshot(pressure_snapshot(0.1F, 0.1F), true);
  REQUIRE(plan.placements.size() == 1);
  CHECK(plan.placements[0].target == ExecutionTarget::cpu);
  CHECK(lower(plan.placements[0].reason).find("ssd") != std::string::npos);
}

TEST_CASE("reconfigurable_graph: snapshot_summary_contains_pressures") {
  ReconfigurableGraph g;
  g.add_node(kernel("k", KernelKind::small), {MemoryTier::ram});
  const GraphPlacementPlan plan = g.plan_for_snapshot(pressure_snapshot(0.42F, 0.84F), false);
  CHECK(plan.snapshot_summary == "Snapshot pressures: vram=0.4200, ram=0.8400");
  CHECK(snapshot_pressure_summary(empty_memory_snapshot()) == "Snapshot pressures: vram=0.0000, ram=0.0000");
}

TEST_CASE("reconfigurable_graph: plan_for_snapshot_with_mem reads live tiers, unknown ids as RAM") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("w", 8, MemoryTier::ssd);
  ReconfigurableGraph g;
  g.add_node_with_tensors(kernel("uses_w", KernelKind::compute_heavy), {"w"}, {MemoryTier::ram});
  g.add_node_with_tensors(kernel("uses_ghost", KernelKind::compute_heavy), {"ghost"}, {MemoryTier::ssd});
  const auto snap = pressure_snapshot(0.1F, 0.1F);
  const GraphPlacementPlan live = g.plan_for_snapshot_with_mem(mem, snap, true);
  CHECK(live.placements[0].target == ExecutionTarget::cpu);  // w is on SSD now
  CHECK(live.placements[1].target == ExecutionTarget::gpu);  // ghost unknown -> RAM
  const GraphPlacementPlan stat = g.plan_for_snapshot(snap, true);
  CHECK(stat.placements[0].target == ExecutionTarget::gpu);
  CHECK(stat.placements[1].target == ExecutionTarget::cpu);
}
