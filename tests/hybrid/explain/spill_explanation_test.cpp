// hybrid/explain/spill_explanation: the learned spill choice of a RAM band with its evidence,
// fastest first, and nothing for a band without runs.
#include "hybrid/explain/spill_explanation.hpp"

#include <doctest/doctest.h>

using namespace hybrid;

TEST_CASE("spill_explanation: the recommendation, its evidence fastest first, and the sentence") {
  SpillTrainer t;
  CHECK_FALSE(explain_spill(t, 0).has_value());
  t.set_stats_entry(0, {"slow", "zstd"}, {5, 5 * 400, 5000});
  t.set_stats_entry(0, {"fast", "none"}, {2, 2 * 3000, 2000});
  t.set_stats_entry(0, {"fast", "zstd"}, {5, 5 * 2500, 5000});
  t.set_stats_entry(1, {"other", "zstd"}, {1, 99999, 10});
  const auto e = explain_spill(t, 0);
  REQUIRE(e.has_value());
  CHECK(e->ram_band == 0);
  CHECK(e->recommended.decision == SpillDecision{"fast", "none"});
  CHECK(e->recommended.kib_per_s == 3000);
  REQUIRE(e->evidence.size() == 3);
  CHECK(e->evidence[0].decision == SpillDecision{"fast", "none"});
  CHECK(e->evidence[1].decision == SpillDecision{"fast", "zstd"});
  CHECK(e->evidence[2].decision == SpillDecision{"slow", "zstd"});
  CHECK(e->evidence[2].runs == 5);
  CHECK(e->evidence[2].moved_bytes == 5000);
  CHECK(e->explanation ==
        "In RAM band 0, spilled data goes to tier fast with codec none at 3000 KiB/s (2 runs): the fastest of 3 measured "
        "choices; next: tier fast with codec zstd at 2500 KiB/s (5 runs).");
  const auto one = explain_spill(t, 1);
  REQUIRE(one.has_value());
  CHECK(one->explanation == "In RAM band 1, spilled data goes to tier other with codec zstd at 99999 KiB/s (1 run): the only choice with measured runs.");
  CHECK_FALSE(explain_spill(t, 2).has_value());
}

TEST_CASE("spill_explanation: the answer moves with the evidence") {
  SpillTrainer t;
  SpillEpisode slow;
  slow.decision = {"slow", "zstd"};
  slow.outcome.score = 700;
  REQUIRE(t.record_episode(slow));
  CHECK(explain_spill(t, 0)->recommended.decision.tier == "slow");
  SpillEpisode fast = slow;
  fast.decision.tier = "fast";
  fast.outcome.score = 1700;
  REQUIRE(t.record_episode(fast));
  CHECK(explain_spill(t, 0)->recommended.decision.tier == "fast");
}
