#include "hybrid/checkpoint/checkpoint_drift.hpp"

#include <doctest/doctest.h>

#include "checkpoint_fixture.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"

using namespace hybrid;

namespace {

std::string entry(const std::string& tier, const std::string& desired, const std::string& summary) {
  return "id=d1\nis_grad=0\ntier=" + tier + "\nlen=2\ncache_kind=tensor\ncache_key=tensor:d1:len2\ndesired_tier=" +
         desired + "\nplan_summary=" + summary + "\n";
}

std::vector<DriftReport> restore(testckpt::Dirs& d, HybridMemoryManager& mem) {
  DriftCollector drift;
  auto r = restore_checkpoint(d.ckpt_root, mem, &drift);
  REQUIRE(r.ok());
  return drift.reports();
}

}  // namespace

TEST_CASE("checkpoint_drift: checkpoint_warns_on_tier_downgrade") {
  testckpt::Dirs d;
  d.put("tensor:d1:len2", {1, 1});
  d.write_manifest_text(testckpt::manifest_with(entry("vram", "vram", "none")));
  auto mem = d.cpu_manager();
  auto reports = restore(d, mem);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].entry_id.value == "d1");
  int downgrades = 0;
  for (const auto& drift : reports[0].drifts) {
    if (const auto* t = std::get_if<TierDowngrade>(&drift)) {
      ++downgrades;
      CHECK(t->desired == MemoryTier::vram);
      CHECK(t->restored == MemoryTier::ram);
    }
  }
  CHECK(downgrades == 1);
  CHECK(mem.get_tier("d1") == MemoryTier::ram);
}

TEST_CASE("checkpoint_drift: checkpoint_detects_missing_backend") {
  testckpt::Dirs d;
  d.put("tensor:d1:len2", {1, 1});
  d.write_manifest_text(testckpt::manifest_with(entry("ssd", "vram", "none")));
  auto mem = d.cpu_manager();
  auto reports = restore(d, mem);
  REQUIRE(reports.size() == 1);
  REQUIRE(reports[0].drifts.size() == 1);  // restored on SSD: no RAM downgrade
  CHECK(reports[0].drifts[0] == CheckpointDrift{MissingBackend{MemoryTier::vram}});
}

TEST_CASE("checkpoint_drift: checkpoint_plan_summary_mismatch") {
  testckpt::Dirs d;
  d.put("tensor:d1:len2", {1, 1});
  d.write_manifest_text(testckpt::manifest_with(entry("ram", "ram", "Chose gpu for the matmul")));
  auto mem = d.cpu_manager();
  auto reports = restore(d, mem);
  REQUIRE(reports.size() == 1);
  REQUIRE(reports[0].drifts.size() == 1);
  const auto* m = std::get_if<PlanMismatch>(&reports[0].drifts[0]);
  REQUIRE(m);
  CHECK(m->summary == "Chose gpu for the matmul");
  CHECK(to_string(reports[0]) == "d1: plan_mismatch(Chose gpu for the matmul)");
}

TEST_CASE("checkpoint_drift: no drift, no report; the collector is cleared by each restore") {
  testckpt::Dirs d;
  d.put("tensor:d1:len2", {1, 1});
  d.write_manifest_text(testckpt::manifest_with(entry("ram", "ram", "CPU is fine")));
  auto mem = d.cpu_manager();
  DriftCollector drift;
  drift.push({TensorId{"stale"}, {PlanMismatch{"x"}}});
  REQUIRE(restore_checkpoint(d.ckpt_root, mem, &drift).ok());
  CHECK(drift.reports().empty());
}

TEST_CASE("checkpoint_drift: detect_drift rules") {
  CheckpointEntry e;
  e.id = "x";
  e.desired_tier = MemoryTier::vram;
  e.last_plan_summary = "GPU";
  CHECK_FALSE(detect_drift(e, MemoryTier::vram, true).has_value());
  auto all = detect_drift(e, MemoryTier::ram, false);
  REQUIRE(all.has_value());
  CHECK(all->drifts.size() == 3);
  CHECK(to_string(*all) == "x: missing_backend(desired=vram), tier_downgrade(vram->ram), plan_mismatch(GPU)");
  CHECK(mentions_gpu("a Gpu b"));
  CHECK_FALSE(mentions_gpu("G P U"));
}
