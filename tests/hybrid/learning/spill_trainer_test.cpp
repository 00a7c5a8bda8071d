// hybrid/learning/spill_trainer: spill episodes counted per (RAM band, tier, codec), and the choice
// with the highest mean throughput, restricted to the candidates a run can take.
#include "hybrid/learning/spill_trainer.hpp"

#include <doctest/doctest.h>

using namespace hybrid;

namespace {

SpillEpisode ep(float ram, const char* tier, const char* codec, std::int32_t kib_s, std::uint64_t moved = 1000) {
  SpillEpisode e;
  e.ram_pressure = ram;
  e.decision = {tier, codec};
  e.outcome.spilled_bytes = moved / 2, e.outcome.restored_bytes = moved - moved / 2;
  e.outcome.score = kib_s;
  return e;
}

}  // namespace

TEST_CASE("spill_trainer: the fastest choice of the band on average wins, whatever came first") {
  SpillTrainer t;
  CHECK_FALSE(t.recommend(0).has_value());
  REQUIRE(t.record_episode(ep(0.1F, "slow", "zstd", 900)));  // one fast-looking slow run first
  CHECK(t.recommend(0)->decision == SpillDecision{"slow", "zstd"});
  for (int i = 0; i < 4; ++i) {
    REQUIRE(t.record_episode(ep(0.1F, "slow", "zstd", 100)));
    REQUIRE(t.record_episode(ep(0.2F, "fast", "zstd", 500)));
  }
  const auto best = t.recommend(0);
  REQUIRE(best.has_value());
  CHECK(best->decision == SpillDecision{"fast", "zstd"});
  CHECK(best->stats == SpillStats{4, 2000, 4000});
  CHECK(t.stats_for_band(0).size() == 2);
  CHECK(t.stats_for_band(0)[1].stats.mean_score() == (900 + 4 * 100) / 5);
  // Another band has its own answer (RAM pressure 0.8: band 2).
  REQUIRE(t.record_episode(ep(0.8F, "slow", "none", 50)));
  CHECK(t.recommend(2)->decision == SpillDecision{"slow", "none"});
  CHECK_FALSE(t.recommend(1).has_value());
}

TEST_CASE("spill_trainer: candidates limit the choice; ties go to more runs, then (tier, codec) order") {
  SpillTrainer t;
  REQUIRE(t.record_episode(ep(0.0F, "fast", "zstd", 500)));
  REQUIRE(t.record_episode(ep(0.0F, "slow", "none", 300)));
  const std::vector<SpillDecision> only_slow{{"slow", "none"}, {"slow", "zstd"}};
  CHECK(t.recommend(0, only_slow)->decision == SpillDecision{"slow", "none"});
  const std::vector<SpillDecision> unknown{{"nvme", "zstd"}};
  CHECK_FALSE(t.recommend(0, unknown).has_value());
  // A tie on the mean: the one with more runs, then the first in order.
  REQUIRE(t.record_episode(ep(0.0F, "b", "zstd", 500)));
  REQUIRE(t.record_episode(ep(0.0F, "b", "zstd", 500)));
  CHECK(t.recommend(0)->decision == SpillDecision{"b", "zstd"});
  REQUIRE(t.record_episode(ep(0.0F, "a", "zstd", 500)));
  REQUIRE(t.record_episode(ep(0.0F, "a", "zstd", 500)));
  CHECK(t.recommend(0)->decision == SpillDecision{"a", "zstd"});
}

TEST_CASE("spill_trainer: a full row takes nothing more; moved bytes past 2^64-1 are refused, never saturated") {
  SpillTrainer t;
  t.set_stats_entry(0, {"fast", "zstd"}, {0xFFFFFFFFU, 5, UINT64_MAX - 10});
  CHECK_FALSE(t.record_episode(ep(0.0F, "fast", "zstd", 7)));
  t.set_stats_entry(0, {"fast", "zstd"}, {1, 5, UINT64_MAX - 10});
  CHECK_FALSE(t.record_episode(ep(0.0F, "fast", "zstd", 7, 1000)));
  CHECK(t.all_stats().front().stats == SpillStats{1, 5, UINT64_MAX - 10});  // nothing counted
  REQUIRE(t.record_episode(ep(0.0F, "fast", "zstd", 7, 10)));              // up to the limit exactly
  CHECK(t.all_stats().front().stats == SpillStats{2, 12, UINT64_MAX});
  // An episode whose own bytes out and back add up past 2^64-1 is refused, and leaves no row.
  SpillEpisode big = ep(0.0F, "slow", "none", 1);
  big.outcome.spilled_bytes = UINT64_MAX;
  big.outcome.restored_bytes = 1;
  CHECK_FALSE(t.record_episode(big));
  CHECK(t.all_stats().size() == 1);
}

TEST_CASE("spill_episode: labels, codecs and the score") {
  CHECK(is_tier_label("fast"));
  CHECK(is_tier_label("nvme0_a-b"));
  CHECK_FALSE(is_tier_label(""));
  CHECK_FALSE(is_tier_label("Fast"));
  CHECK_FALSE(is_tier_label("-x"));
  CHECK_FALSE(is_tier_label("a;b"));
  CHECK_FALSE(is_tier_label(std::string(33, 'a')));
  CHECK(is_tier_label(std::string(32, 'a')));
  CHECK(is_spill_codec("zstd"));
  CHECK_FALSE(is_spill_codec("lz4"));
  CHECK(spill_score(0, 1.0) == 0);
  CHECK(spill_score(2 << 20, 2.0) == 1024);  // 2 MiB in 2 s: 1024 KiB/s
  CHECK(spill_score(1536, 1.0) == 2);        // 1.5 KiB/s rounds half away from zero
  CHECK(spill_score(1 << 30, 0.0) == 2147483647);  // seconds floored at 1 us: 2^20 KiB / 1e-6 s, clamped to int32
}
