#include "hybrid/checkpoint/lazy_restore.hpp"

#include <doctest/doctest.h>

#include "checkpoint_fixture.hpp"

using namespace hybrid;

namespace {

std::string entry(const std::string& id, const std::string& tier, const std::string& desired,
                  const std::string& summary, std::size_t len = 3) {
  return "id=" + id + "\nis_grad=0\ntier=" + tier + "\nlen=" + std::to_string(len) +
         "\ncache_kind=tensor\ncache_key=tensor:" + id + ":len" + std::to_string(len) + "\ndesired_tier=" + desired +
         "\nplan_summary=" + summary + "\n";
}

}  // namespace

TEST_CASE("lazy_restore: lazy_restore_does_not_load_unused_entries") {
  testckpt::Dirs d;
  d.put("tensor:t_lazy:len3", {1, 2, 3});
  d.write_manifest_text(testckpt::manifest_with(entry("t_lazy", "ram", "none", "none")));
  auto mem = d.cpu_manager();
  LazyRegistry lazy;
  REQUIRE(restore_checkpoint_lazy(d.ckpt_root, mem, lazy).ok());
  CHECK(mem.get_tier("t_lazy") == MemoryTier::ram);
  CHECK(lazy.state("t_lazy") == LazyState::unmaterialized);
  CHECK(testckpt::ram_bytes(mem, "t_lazy") == nullptr);
  CHECK(mem.tensor_len_bytes("t_lazy") == 3);
}

TEST_CASE("lazy_restore: on_demand_materialization_is_correct") {
  testckpt::Dirs d;
  d.put("tensor:t_lazy_mat:len3", {4, 5, 6});
  d.write_manifest_text(testckpt::manifest_with(entry("t_lazy_mat", "ram", "none", "none")));
  auto mem = d.cpu_manager();
  LazyRegistry lazy;
  REQUIRE(restore_checkpoint_lazy(d.ckpt_root, mem, lazy).ok());
  REQUIRE(lazy.ensure_materialized(mem, "t_lazy_mat").ok());
  CHECK(lazy.state("t_lazy_mat") == LazyState::materialized);
  REQUIRE(testckpt::ram_bytes(mem, "t_lazy_mat"));
  CHECK(*testckpt::ram_bytes(mem, "t_lazy_mat") == Bytes{4, 5, 6});
  // Idempotent, and unknown ids are left alone.
  CHECK(lazy.ensure_materialized(mem, "t_lazy_mat").ok());
  CHECK(lazy.ensure_materialized(mem, "never-lazy").ok());
}

TEST_CASE("lazy_restore: lazy_restore_preserves_hints_and_drift") {
  testckpt::Dirs d;
  d.put("tensor:lh:len3", {7, 7, 7});
  d.write_manifest_text(testckpt::manifest_with(entry("lh", "vram", "vram", "GPU for attention")));
  auto mem = d.cpu_manager();
  LazyRegistry lazy;
  DriftCollector drift;
  REQUIRE(restore_checkpoint_lazy(d.ckpt_root, mem, lazy, &drift).ok());
  CHECK(mem.hints().desired_tier("lh") == MemoryTier::vram);
  CHECK(mem.hints().last_plan_summary("lh")->find("GPU") != std::string::npos);
  auto reports = drift.reports();
  REQUIRE(reports.size() == 1);
  REQUIRE(reports[0].drifts.size() == 3);
  CHECK(std::holds_alternative<MissingBackend>(reports[0].drifts[0]));
  CHECK(std::holds_alternative<TierDowngrade>(reports[0].drifts[1]));
  CHECK(std::holds_alternative<PlanMismatch>(reports[0].drifts[2]));
  REQUIRE(lazy.ensure_materialized(mem, "lh").ok());
  CHECK(mem.get_tier("lh") == MemoryTier::ram);
  CHECK(mem.hints().desired_tier("lh") == MemoryTier::vram);
  CHECK(mem.hints().last_plan_summary("lh") == "GPU for attention");
}

TEST_CASE("lazy_restore: a blob that went missing fails materialization and stays unmaterialized") {
  testckpt::Dirs d;
  d.write_manifest_text(testckpt::manifest_with(entry("gone", "ssd", "none", "none")));
  auto mem = d.cpu_manager();
  LazyRegistry lazy;
  REQUIRE(restore_checkpoint_lazy(d.ckpt_root, mem, lazy).ok());
  CHECK(mem.get_tier("gone") == MemoryTier::ssd);
  auto r = lazy.ensure_materialized(mem, "gone");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::missing_blob);
  CHECK(lazy.state("gone") == LazyState::unmaterialized);
}
