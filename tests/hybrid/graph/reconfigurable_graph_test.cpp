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

TEST_CASE("reconfigurable_graph: ids are assigned from 0; a node keeps its tensor ids") {
  ReconfigurableGraph g;
  CHECK(g.add_node(kernel("a", KernelKind::small), {"x", "y"}) == 0);
  CHECK(g.add_node(kernel("b", KernelKind::small), {"y"}) == 1);
  REQUIRE(g.nodes().size() == 2);
  CHECK(g.nodes()[0].tensor_ids == std::vector<std::string>{"x", "y"});
  CHECK(g.nodes()[1].tensor_ids == std::vector<std::string>{"y"});
}

TEST_CASE("reconfigurable_graph: graph_can_replan_with_different_snapshots") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  ReconfigurableGraph g;
  const NodeId heavy = g.add_node(kernel("heavy", KernelKind::compute_heavy), {"h"});
  const NodeId small = g.add_node(kernel("small", KernelKind::small), {"s"});
  const GraphPlacementPlan a = g.plan_for_snapshot(mem, pressure_snapshot(0.2F, 0.2F), true);
  const GraphPlacementPlan b = g.plan_for_snapshot(mem, pressure_snapshot(0.96F, 0.2F), true);
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
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("r", 8, MemoryTier::ram);
  mem.register_tensor("d", 8, MemoryTier::ssd);
  ReconfigurableGraph g;
  g.add_node(kernel("heavy", KernelKind::compute_heavy), {"r", "d"});
  const GraphPlacementPlan plan = g.plan_for_snapshot(mem, pressure_snapshot(0.1F, 0.1F), true);
  REQUIRE(plan.placements.size() == 1);
  CHECK(plan.placements[0].target == ExecutionTarget::cpu);
  CHECK(lower(plan.placements[0].reason).find("ssd") != std::string::npos);
}

TEST_CASE("reconfigurable_graph: snapshot_summary_contains_pressures") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  ReconfigurableGraph g;
  g.add_node(kernel("k", KernelKind::small), {"k"});
  const GraphPlacementPlan plan = g.plan_for_snapshot(mem, pressure_snapshot(0.42F, 0.84F), false);
  CHECK(plan.snapshot_summary == "Snapshot pressures: vram=0.4200, ram=0.8400");
  CHECK(snapshot_pressure_summary(empty_memory_snapshot()) == "Snapshot pressures: vram=0.0000, ram=0.0000");
}

TEST_CASE("reconfigurable_graph: plan_for_snapshot reads live tiers, unknown ids as RAM") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  mem.register_tensor("w", 8, MemoryTier::ssd);
  ReconfigurableGraph g;
  g.add_node(kernel("uses_w", KernelKind::compute_heavy), {"w"});
  g.add_node(kernel("uses_ghost", KernelKind::compute_heavy), {"ghost"});
  const auto snap = pressure_snapshot(0.1F, 0.1F);
  const GraphPlacementPlan live = g.plan_for_snapshot(mem, snap, true);
  CHECK(live.placements[0].target == ExecutionTarget::cpu);  // w is on SSD now
  CHECK(live.placements[1].target == ExecutionTarget::gpu);  // ghost unknown -> RAM
  mem.register_tensor("w", 8, MemoryTier::ram);  // the same graph re-planned once w is back in RAM
  CHECK(g.plan_for_snapshot(mem, snap, true).placements[0].target == ExecutionTarget::gpu);
}
