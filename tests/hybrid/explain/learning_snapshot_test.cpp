#include "hybrid/explain/learning_snapshot.hpp"

#include <doctest/doctest.h>

#include "record_episode.hpp"

using namespace hybrid;
using explain_test::record;

TEST_CASE("learning_snapshot: snapshot_empty_trainer") {
  const auto snap = learning_snapshot(SelfTrainer{});
  CHECK(snap.entries.empty());
  CHECK(snap.summary.total_entries == 0);
  CHECK(snap.summary.total_episodes == 0);
  CHECK(snap.summary.gpu_preference_ratio == 0.0F);
}

TEST_CASE("learning_snapshot: snapshot_contains_learned_entry") {
  SelfTrainer t;
  record(t, {true, 0.6F, 0.95F}, BackendChoice::gpu, true, 9);
  const auto snap = learning_snapshot(t);
  REQUIRE(snap.entries.size() == 1);
  const auto& e = snap.entries[0];
  CHECK(e.context == LearningContextSnapshot{true, 1, 3});
  CHECK(e.backend == BackendChoice::gpu);
  CHECK(e.recommended_backend == BackendChoice::gpu);
  CHECK(e.stats.episodes == 1);
  CHECK(e.stats.successes == 1);
  CHECK(e.stats.drift_events == 0);
  CHECK(e.stats.average_score == 9.0F);
}

TEST_CASE("learning_snapshot: snapshot_is_deterministic_ordered") {
  SelfTrainer t;
  record(t, {true, 0.95F, 0.1F}, BackendChoice::gpu, true, 1);
  record(t, {false, 0.1F, 0.8F}, BackendChoice::cpu, true, 1);
  record(t, {true, 0.1F, 0.1F}, BackendChoice::gpu, true, 1);
  record(t, {true, 0.1F, 0.1F}, BackendChoice::cpu, true, 1);
  const auto a = learning_snapshot(t), b = learning_snapshot(t);
  REQUIRE(a.entries.size() == 4);
  REQUIRE(b.entries.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(a.entries[i].context == b.entries[i].context);
    CHECK(a.entries[i].backend == b.entries[i].backend);
  }
  CHECK(a.entries[0].context == LearningContextSnapshot{false, 0, 2});
  CHECK(a.entries[1].context == LearningContextSnapshot{true, 0, 0});
  CHECK(a.entries[1].backend == BackendChoice::cpu);
  CHECK(a.entries[2].backend == BackendChoice::gpu);
  CHECK(a.entries[3].context == LearningContextSnapshot{true, 3, 0});
}

TEST_CASE("learning_snapshot: summary_fields_are_correct") {
  SelfTrainer t;
  record(t, {true, 0.1F, 0.1F}, BackendChoice::gpu, true, 10);
  record(t, {true, 0.1F, 0.1F}, BackendChoice::gpu, true, 10);
  record(t, {true, 0.8F, 0.8F}, BackendChoice::cpu, true, 4);
  const auto snap = learning_snapshot(t);
  CHECK(snap.summary.total_entries == snap.entries.size());
  CHECK(snap.summary.total_entries == 2);
  CHECK(snap.summary.total_episodes == 3);
  CHECK(snap.summary.gpu_preference_ratio == 0.5F);
}

TEST_CASE("learning_snapshot: rows of one context share the recommendation; average keeps the fraction") {
  SelfTrainer t;
  record(t, {true, 0.1F, 0.1F}, BackendChoice::gpu, true, 3);
  record(t, {true, 0.1F, 0.1F}, BackendChoice::gpu, true, 2);
  record(t, {true, 0.1F, 0.1F}, BackendChoice::cpu, true, 1);
  const auto snap = learning_snapshot(t);
  REQUIRE(snap.entries.size() == 2);
  CHECK(snap.entries[0].recommended_backend == BackendChoice::gpu);
  CHECK(snap.entries[1].recommended_backend == BackendChoice::gpu);
  CHECK(snap.entries[1].stats.average_score == 2.5F);
}
