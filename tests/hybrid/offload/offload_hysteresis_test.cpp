#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/offload/smart_offload_engine.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::pressure_snapshot;

namespace {

// A manager holding tensor "t" in VRAM (logical registration; planning only).
struct HysteresisVram {
  testsupport::TempDir dir;
  HybridMemoryManager mem{dir.path(), std::make_unique<FakeVramAdapter>()};
  std::vector<std::string> ids{"t"};
  HysteresisVram() { mem.register_tensor("t", 64, MemoryTier::vram); }
};

}  // namespace

TEST_CASE("offload_hysteresis: defaults are the seed's bands, cooldown and budget") {
  const OffloadConfig cfg;
  CHECK(cfg.vram_high == 0.95F);
  CHECK(cfg.vram_low == 0.85F);
  CHECK(cfg.ram_high == 0.95F);
  CHECK(cfg.ram_low == 0.85F);
  CHECK(cfg.cooldown_ticks == 5);
  CHECK(cfg.max_actions_per_tick == 4);
}

TEST_CASE("offload_hysteresis: stable_band_does_not_trigger") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const OffloadPlan plan = engine.plan_with_tick(pressure_snapshot(0.90F, 0.1F), f.ids, f.mem, 1);
  CHECK(plan.actions.empty());
  CHECK(plan.reason == "No new offloading due to hysteresis band");
  CHECK_FALSE(engine.last_moved("t").has_value());
}

TEST_CASE("offload_hysteresis: triggers_on_high") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const OffloadPlan plan = engine.plan_with_tick(pressure_snapshot(0.97F, 0.1F), f.ids, f.mem, 1);
  CHECK(plan.actions == std::vector<OffloadAction>{OffloadAction::move_to_ram("t")});
  CHECK(plan.reason.starts_with("VRAM pressure high"));
  CHECK(engine.last_moved("t") == 1U);
}

TEST_CASE("offload_hysteresis: cooldown_skips_repeated_moves") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const auto hot = pressure_snapshot(0.99F, 0.1F);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 10).actions.size() == 1);
  const OffloadPlan second = engine.plan_with_tick(hot, f.ids, f.mem, 12);
  CHECK(second.actions.empty());
  CHECK(second.reason == "VRAM pressure high but no offloadable tensors in VRAM; some tensors skipped due to cooldown");
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 14).actions.empty());  // 14 - 10 < 5
  const OffloadPlan third = engine.plan_with_tick(hot, f.ids, f.mem, 16);
  CHECK(third.actions.size() == 1);
  CHECK(engine.last_moved("t") == 16U);
}

TEST_CASE("offload_hysteresis: a tick at or before the last move is denied") {
  HysteresisVram f;
  SmartOffloadEngine engine(OffloadConfig{.cooldown_ticks = 0});
  const auto hot = pressure_snapshot(0.99F, 0.1F);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 7).actions.size() == 1);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 7).actions.empty());
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 3).actions.empty());
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 8).actions.size() == 1);
}

TEST_CASE("offload_hysteresis: below_low_turns_off_pressure") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const OffloadPlan plan = engine.plan_with_tick(pressure_snapshot(0.50F, 0.50F), f.ids, f.mem, 1);
  CHECK(plan.actions.empty());
  CHECK(plan.reason == "No offloading needed");
  // RAM in the band while VRAM is low is still the band.
  CHECK(engine.plan_with_tick(pressure_snapshot(0.50F, 0.90F), f.ids, f.mem, 2).reason ==
        "No new offloading due to hysteresis band");
}

TEST_CASE("offload_hysteresis: legacy plan ignores cooldown") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const auto hot = pressure_snapshot(0.99F, 0.1F);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 10).actions.size() == 1);
  CHECK(engine.plan(hot, f.ids, f.mem).actions.size() == 1);
}

TEST_CASE("offload_hysteresis: a tensor is eligible again exactly cooldown_ticks later") {
  HysteresisVram f;
  SmartOffloadEngine engine;
  const auto hot = pressure_snapshot(0.99F, 0.1F);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 10).actions.size() == 1);
  CHECK(engine.plan_with_tick(hot, f.ids, f.mem, 15).actions.size() == 1);
}
