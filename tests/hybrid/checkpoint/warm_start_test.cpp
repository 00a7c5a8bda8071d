#include "hybrid/checkpoint/warm_start.hpp"

#include <doctest/doctest.h>

#include "checkpoint_fixture.hpp"
#include "hybrid/checkpoint/lazy_restore.hpp"

using namespace hybrid;

namespace {

HybridCheckpoint one(const std::string& id, MemoryTier tier, std::optional<MemoryTier> desired) {
  HybridCheckpoint cp;
  CheckpointEntry e;
  e.id = id;
  e.tier = tier;
  e.len_bytes = 4;
  e.desired_tier = desired;
  cp.entries.push_back(e);
  return cp;
}

}  // namespace

TEST_CASE("warm_start: warm_start_prefers_vram_when_gpu_available") {
  HybridMemoryManager mem("unused-ssd-dir");
  const auto plan = build_warm_start_plan(mem, one("t1", MemoryTier::ram, MemoryTier::vram), {}, true);
  REQUIRE(plan.decisions.size() == 1);
  CHECK(plan.decisions[0].action == WarmStartAction{WarmHintPromote{MemoryTier::vram}});
  CHECK(plan.decisions[0].reason.find("Desired VRAM") != std::string::npos);
  CHECK(plan.decisions[0].reason.find("GPU available") != std::string::npos);
  CHECK(plan.summary == "warm_start: keep=0 promote=1 degrade=0");
}

TEST_CASE("warm_start: warm_start_degrades_when_gpu_missing") {
  HybridMemoryManager mem("unused-ssd-dir");
  const auto plan = build_warm_start_plan(mem, one("t2", MemoryTier::ram, MemoryTier::vram), {}, false);
  REQUIRE(plan.decisions.size() == 1);
  CHECK(plan.decisions[0].action == WarmStartAction{WarmDegradeSafe{MemoryTier::ram}});
  CHECK(plan.decisions[0].reason.find("GPU unavailable") != std::string::npos);
  CHECK(plan.summary == "warm_start: keep=0 promote=0 degrade=1");
}

TEST_CASE("warm_start: warm_start_respects_drift_downgrade_reason") {
  HybridMemoryManager mem("unused-ssd-dir");
  std::vector<DriftReport> drift{{TensorId{"t3"}, {TierDowngrade{MemoryTier::vram, MemoryTier::ram}}}};
  const auto plan = build_warm_start_plan(mem, one("t3", MemoryTier::vram, MemoryTier::vram), drift, true);
  REQUIRE(plan.decisions.size() == 1);
  CHECK(plan.decisions[0].action == WarmStartAction{WarmDegradeSafe{MemoryTier::ram}});
  CHECK(plan.decisions[0].reason == "Tier downgraded from vram to ram during restore drift");
}

TEST_CASE("warm_start: warm_start_does_not_materialize_lazy_entries") {
  testckpt::Dirs d;
  d.put("tensor:t_lazy:len3", {1, 2, 3});
  d.write_manifest_text(testckpt::manifest_with(
      "id=t_lazy\nis_grad=0\ntier=ssd\nlen=3\ncache_kind=tensor\ncache_key=tensor:t_lazy:len3\ndesired_tier=ram\n"
      "plan_summary=none\n"));
  auto mem = d.cpu_manager();
  LazyRegistry lazy;
  DriftCollector drift;
  auto cp = restore_checkpoint_lazy(d.ckpt_root, mem, lazy, &drift);
  REQUIRE(cp.ok());
  const auto plan = build_warm_start_plan(mem, cp.value(), drift.reports(), false);
  REQUIRE(plan.decisions.size() == 1);
  CHECK(plan.decisions[0].action == WarmStartAction{WarmHintPromote{MemoryTier::ram}});
  CHECK(plan.decisions[0].reason == "Prefer RAM for faster access when safe");
  CHECK(lazy.state("t_lazy") == LazyState::unmaterialized);
  CHECK(mem.backing("t_lazy") != nullptr);
  CHECK(std::holds_alternative<NoBacking>(*mem.backing("t_lazy")));
  CHECK(mem.get_tier("t_lazy") == MemoryTier::ssd);
}

TEST_CASE("warm_start: keep reasons, ordering by (is_grad, id), and the summary counts") {
  HybridMemoryManager mem("unused-ssd-dir");
  HybridCheckpoint cp;
  auto add = [&](std::string id, bool grad, MemoryTier tier, std::optional<MemoryTier> desired) {
    CheckpointEntry e;
    e.id = std::move(id);
    e.is_grad = grad;
    e.tier = tier;
    e.desired_tier = desired;
    cp.entries.push_back(e);
  };
  add("z", false, MemoryTier::ssd, MemoryTier::ssd);
  add("a", true, MemoryTier::ram, std::nullopt);
  add("m", false, MemoryTier::ram, MemoryTier::cpu);
  const auto plan = build_warm_start_plan(mem, cp, {}, true);
  REQUIRE(plan.decisions.size() == 3);
  CHECK(plan.decisions[0].id == "m");
  CHECK(plan.decisions[0].reason == "Desired tier is cpu and current placement is ram, no change planned");
  CHECK(plan.decisions[1].id == "z");
  CHECK(plan.decisions[2].id == "a");
  CHECK(plan.decisions[2].reason == "No desired tier hint");
  CHECK(plan.summary == "warm_start: keep=3 promote=0 degrade=0");
  CHECK(to_string(plan.decisions[0].action) == "keep");
}
