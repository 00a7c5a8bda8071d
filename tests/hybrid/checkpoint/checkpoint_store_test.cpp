#include "hybrid/checkpoint/checkpoint_store.hpp"

#include <doctest/doctest.h>

#include "checkpoint_fixture.hpp"
#include "hybrid/streams/refusing_vram_adapter.hpp"

using namespace hybrid;

// ---- 13.9.0 ----

TEST_CASE("checkpoint_store: save_and_restore_checkpoint_ram_entries") {
  testckpt::Dirs d;
  auto mem = d.vram_manager();
  REQUIRE(mem.register_tensor_with_data("t1", {1, 2, 3}, MemoryTier::ram).ok());
  d.put("tensor:t1:len3", {1, 2, 3});
  auto saved = save_checkpoint(d.ckpt_root, 1234, mem);
  REQUIRE(saved.ok());
  REQUIRE(saved->entries.size() == 1);
  CHECK(saved->entries[0].id == "t1");
  CHECK(saved->entries[0].cache_key == "tensor:t1:len3");

  auto fresh = d.vram_manager();
  auto restored = restore_checkpoint(d.ckpt_root, fresh);
  REQUIRE(restored.ok());
  CHECK(restored->entries.size() == 1);
  CHECK(restored.value() == saved.value());
  CHECK(fresh.get_tier("t1") == MemoryTier::ram);
  REQUIRE(testckpt::ram_bytes(fresh, "t1"));
  CHECK(*testckpt::ram_bytes(fresh, "t1") == Bytes{1, 2, 3});
}

TEST_CASE("checkpoint_store: restore_ssd_entry_as_reference_without_loading") {
  testckpt::Dirs d;
  auto mem = d.cpu_manager();
  REQUIRE(mem.register_tensor_with_data("t2", {5, 6, 7, 8}, MemoryTier::ram).ok());
  auto plan = mem.plan_move("t2", MemoryTier::ssd, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move("t2", plan.value()).ok());
  auto saved = save_checkpoint(d.ckpt_root, 1, mem);
  REQUIRE(saved.ok());
  REQUIRE(saved->entries.size() == 1);
  CHECK(saved->entries[0].tier == MemoryTier::ssd);
  CHECK(saved->entries[0].cache_key == "tensor:t2:len4");

  auto fresh = d.cpu_manager();
  auto restored = restore_checkpoint(d.ckpt_root, fresh);
  REQUIRE(restored.ok());
  CHECK(restored->entries.size() == 1);
  CHECK(fresh.get_tier("t2") == MemoryTier::ssd);
  auto back = fresh.plan_move("t2", MemoryTier::ram, empty_memory_snapshot());
  REQUIRE(back.ok());
  REQUIRE(fresh.apply_move("t2", back.value()).ok());
  REQUIRE(testckpt::ram_bytes(fresh, "t2"));
  CHECK(*testckpt::ram_bytes(fresh, "t2") == Bytes{5, 6, 7, 8});
}

TEST_CASE("checkpoint_store: vram_entries_restore_safely_to_ram") {
  testckpt::Dirs d;
  auto mem = d.vram_manager();
  REQUIRE(mem.register_tensor_with_data("t3", {9, 9}, MemoryTier::ram).ok());
  auto plan = mem.plan_move("t3", MemoryTier::vram, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move("t3", plan.value()).ok());
  REQUIRE(mem.get_tier("t3") == MemoryTier::vram);
  d.put("tensor:t3:len2", {9, 9});
  auto saved = save_checkpoint(d.ckpt_root, 1, mem);
  REQUIRE(saved.ok());
  REQUIRE(saved->entries.size() == 1);
  CHECK(saved->entries[0].tier == MemoryTier::vram);

  auto fresh = d.vram_manager();
  auto restored = restore_checkpoint(d.ckpt_root, fresh);
  REQUIRE(restored.ok());
  CHECK(restored->entries.size() == 1);
  CHECK(fresh.get_tier("t3") == MemoryTier::ram);
  REQUIRE(testckpt::ram_bytes(fresh, "t3"));
  CHECK(*testckpt::ram_bytes(fresh, "t3") == Bytes{9, 9});
}

TEST_CASE("checkpoint_store: with a GPU offered, a VRAM entry goes back on VRAM, or to RAM with the reason") {
  testckpt::Dirs d;
  auto mem = d.vram_manager();
  REQUIRE(mem.register_tensor_with_data("t3", {9, 9}, MemoryTier::vram).ok());
  d.put("tensor:t3:len2", {9, 9});
  REQUIRE(save_checkpoint(d.ckpt_root, 1, mem).ok());

  auto fresh = d.vram_manager();
  std::vector<VramFallback> fallbacks;
  DriftCollector drift;
  REQUIRE(restore_checkpoint_on_host(d.ckpt_root, fresh, true, &drift, &fallbacks).ok());
  CHECK(fresh.get_tier("t3") == MemoryTier::vram);
  CHECK(fallbacks.empty());
  CHECK(drift.reports().empty());

  HybridMemoryManager refusing(d.tmp.file("ssd-refusing"), std::make_unique<testing::RefusingVramAdapter>());
  refusing.attach_persistent_cache(PersistentHybridCache(d.cache_root));
  REQUIRE(restore_checkpoint_on_host(d.ckpt_root, refusing, true, nullptr, &fallbacks).ok());
  CHECK(refusing.get_tier("t3") == MemoryTier::ram);
  REQUIRE(testckpt::ram_bytes(refusing, "t3"));
  CHECK(*testckpt::ram_bytes(refusing, "t3") == Bytes{9, 9});
  REQUIRE(fallbacks.size() == 1);
  CHECK(fallbacks[0].id == "t3");
  CHECK(fallbacks[0].reason.find("simulated VRAM failure") != std::string::npos);
}

// ---- 13.9.1 ----

TEST_CASE("checkpoint_store: save_and_restore_preserves_hints") {
  testckpt::Dirs d;
  auto mem = d.cpu_manager();
  REQUIRE(mem.register_tensor_with_data("h1", {4, 4, 4}, MemoryTier::ram).ok());
  d.put("tensor:h1:len3", {4, 4, 4});
  mem.hints().set_desired_tier("h1", MemoryTier::vram);
  mem.hints().set_last_plan_summary("h1", "GPU preferred:\nlarge matmul\r\noperand");
  REQUIRE(save_checkpoint(d.ckpt_root, 5, mem).ok());

  auto fresh = d.cpu_manager();
  auto restored = restore_checkpoint(d.ckpt_root, fresh);
  REQUIRE(restored.ok());
  REQUIRE(restored->entries.size() == 1);
  REQUIRE(restored->entries[0].last_plan_summary.has_value());
  CHECK(restored->entries[0].last_plan_summary->find("large matmul") != std::string::npos);
  CHECK(*restored->entries[0].last_plan_summary == "GPU preferred: large matmul  operand");
  CHECK(fresh.hints().desired_tier("h1") == MemoryTier::vram);
  CHECK(fresh.hints().last_plan_summary("h1") == "GPU preferred: large matmul  operand");
}

TEST_CASE("checkpoint_store: restore_old_manifest_without_hints_is_ok") {
  testckpt::Dirs d;
  d.put("tensor:old:len2", {1, 2});
  d.write_manifest_text(testckpt::manifest_with(
      "id=old\nis_grad=0\ntier=ram\nlen=2\ncache_kind=tensor\ncache_key=tensor:old:len2\n"));
  auto mem = d.cpu_manager();
  auto restored = restore_checkpoint(d.ckpt_root, mem);
  REQUIRE(restored.ok());
  CHECK(mem.get_tier("old") == MemoryTier::ram);
  CHECK_FALSE(mem.hints().desired_tier("old").has_value());
  CHECK_FALSE(mem.hints().last_plan_summary("old").has_value());
}

TEST_CASE("checkpoint_store: vram_hint_survives_safe_restore_to_ram") {
  testckpt::Dirs d;
  d.put("tensor:v:len3", {7, 8, 9});
  d.write_manifest_text(testckpt::manifest_with(
      "id=v\nis_grad=0\ntier=vram\nlen=3\ncache_kind=tensor\ncache_key=tensor:v:len3\ndesired_tier=vram\n"
      "plan_summary=none\n"));
  auto mem = d.cpu_manager();
  REQUIRE(restore_checkpoint(d.ckpt_root, mem).ok());
  CHECK(mem.get_tier("v") == MemoryTier::ram);
  CHECK(mem.hints().desired_tier("v") == MemoryTier::vram);
  REQUIRE(testckpt::ram_bytes(mem, "v"));
  CHECK(*testckpt::ram_bytes(mem, "v") == Bytes{7, 8, 9});
}

// ---- beyond the seed's list ----

TEST_CASE("checkpoint_store: entries are sorted (is_grad, id); gradients keep their kind and key") {
  testckpt::Dirs d;
  auto mem = d.cpu_manager();
  REQUIRE(mem.register_tensor_with_data("b", {1}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("a", {2}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("g", {3, 3}, MemoryTier::ram).ok());
  REQUIRE(mem.gradients().persist("g", Bytes{3, 3}, 0, true).ok());
  mem.register_tensor("c", 10, MemoryTier::cpu);
  auto saved = save_checkpoint(d.ckpt_root, 9, mem);
  REQUIRE(saved.ok());
  REQUIRE(saved->entries.size() == 4);
  CHECK(saved->entries[0].id == "a");
  CHECK_FALSE(saved->entries[0].cache_key.has_value());  // never put in the cache
  CHECK(saved->entries[2].id == "c");
  CHECK(saved->entries[3].id == "g");
  CHECK(saved->entries[3].is_grad);
  CHECK(saved->entries[3].cache_kind == CacheKind::gradient);
  CHECK(saved->entries[3].cache_key == "grad:g:len2");
}

TEST_CASE("checkpoint_store: restore needs an attached cache") {
  testckpt::Dirs d;
  d.write_manifest_text(testckpt::manifest_with("", 0));
  HybridMemoryManager bare(d.tmp.file("ssd"));
  auto r = restore_checkpoint(d.ckpt_root, bare);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::io);
}

TEST_CASE("checkpoint_store: a missing or corrupt blob fails the restore and registers nothing") {
  testckpt::Dirs d;
  d.put("tensor:a:len2", {1, 2});
  const std::string two =
      "id=a\nis_grad=0\ntier=ram\nlen=2\ncache_kind=tensor\ncache_key=tensor:a:len2\n\n"
      "id=b\nis_grad=0\ntier=ram\nlen=2\ncache_kind=tensor\ncache_key=tensor:b:len2\n";
  d.write_manifest_text(testckpt::manifest_with(two, 2));
  auto mem = d.cpu_manager();
  auto r = restore_checkpoint(d.ckpt_root, mem);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::missing_blob);
  CHECK(r.error().message().find("'b'") != std::string::npos);
  CHECK(mem.tensor_count() == 0);

  d.put("tensor:b:len2", {3, 4});
  PersistentHybridCache cache(d.cache_root);
  { std::ofstream(cache.bin_path(CacheKind::tensor, "tensor:b:len2"), std::ios::binary) << "XY"; }
  auto corrupt = restore_checkpoint(d.ckpt_root, mem);
  REQUIRE_FALSE(corrupt.ok());
  CHECK(corrupt.error().kind() == CheckpointFailure::invalid_format);
  CHECK(mem.tensor_count() == 0);
}

TEST_CASE("checkpoint_store: a checkpoint root that is a file is an Io error") {
  testckpt::Dirs d;
  { std::ofstream(d.ckpt_root) << "x"; }
  auto mem = d.cpu_manager();
  auto r = save_checkpoint(d.ckpt_root, 1, mem);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == CheckpointFailure::io);
}

TEST_CASE("checkpoint_store: every entry of a multi-entry checkpoint comes back, gradients stay gradients") {
  testckpt::Dirs d;
  auto mem = d.cpu_manager();
  REQUIRE(mem.register_tensor_with_data("a", {1, 1}, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("b", {2, 2, 2}, MemoryTier::ram).ok());
  auto plan = mem.plan_move("b", MemoryTier::ssd, empty_memory_snapshot());
  REQUIRE(plan.ok());
  REQUIRE(mem.apply_move("b", plan.value()).ok());
  REQUIRE(mem.register_tensor_with_data("g", {3}, MemoryTier::ram).ok());
  REQUIRE(mem.gradients().persist("g", Bytes{3}, 0, true).ok());
  d.put("tensor:a:len2", {1, 1});
  REQUIRE(save_checkpoint(d.ckpt_root, 3, mem).ok());

  auto fresh = d.cpu_manager();
  auto r = restore_checkpoint(d.ckpt_root, fresh);
  REQUIRE(r.ok());
  CHECK(r->entries.size() == 3);
  CHECK(fresh.get_tier("a") == MemoryTier::ram);
  CHECK(fresh.get_tier("b") == MemoryTier::ssd);
  CHECK(fresh.get_tier("g") == MemoryTier::ram);
  CHECK(fresh.gradients().contains("g"));
  CHECK_FALSE(fresh.gradients().contains("a"));
  REQUIRE(testckpt::ram_bytes(fresh, "g"));
  CHECK(*testckpt::ram_bytes(fresh, "g") == Bytes{3});
}
