// The fp64 trainer (nl::BasicTrainer<double>, nltrain train --fp64): the same steps as the fp32
// trainer in binary64, by the hand-written backward only.
#include <cmath>
#include <optional>

#include "mag_check.hpp"
#include "nl/trainer.hpp"

namespace {

// Chunk n of a small deterministic corpus (as trainer_test.cpp's).
void fp64_chunk(std::size_t n, const nl::MagConfig& cfg, std::vector<std::size_t>& ids, std::vector<std::size_t>& tg) {
  ids.resize(cfg.seq_len), tg.resize(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) {
    ids[t] = (3 * n + 5 * t + 1) % cfg.vocab;
    tg[t] = (3 * n + 5 * t + 6) % cfg.vocab;
  }
}

nl::AdamWConfig fp64_adamw() {
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 2, o.total_steps = 10;
  return o;
}

}  // namespace

TEST_CASE("trainer_fp64: double and float trainers' losses agree to 1e-4 relative over 5 steps, every rule") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    for (nl::FrequencySchedule schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
      INFO(nl::to_string(rule) << (schedule == nl::FrequencySchedule::learned ? " learned schedule" : ""));
      nl::MagConfig cfg = nltest::mag_config(rule, 2);
      cfg.periods = {1, 2};  // level 1 alternates frozen / active: error buffers at double too
      cfg.schedule = schedule;
      nl::Trainer single(cfg, nl::MagParams<float>::init(cfg), fp64_adamw());
      nl::Trainer64 twice(cfg, nl::MagParams<double>::init(cfg), fp64_adamw());
      std::vector<std::size_t> ids, tg;
      for (std::size_t n = 0; n < 5; ++n) {
        fp64_chunk(n, cfg, ids, tg);
        const auto a = single.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written);
        const auto b = twice.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->pulse.active == b->pulse.active);
        CHECK(std::abs(static_cast<double>(a->loss) - b->loss) <= 1e-4 * std::abs(b->loss));
      }
      // The double run's parameters are not the float run's widened: it really ran in binary64.
      CHECK(twice.params().to_flat() != single.params().cast<double>().to_flat());
    }
  }
}

TEST_CASE("trainer_fp64: the tape path is refused as invalid and the trainer is untouched") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  nl::Trainer64 t(cfg, nl::MagParams<double>::init(cfg), fp64_adamw());
  const std::vector<double> before = t.params().to_flat();
  std::vector<std::size_t> ids, tg;
  fp64_chunk(0, cfg, ids, tg);
  const auto r = t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind() == nl::StepFailure::invalid);
  CHECK(r.error().message().find("fp32-only") != std::string::npos);
  CHECK(t.params().to_flat() == before);
  CHECK(t.step() == 0);
}

TEST_CASE("trainer_fp64: a resumed run matches an uninterrupted one bit for bit") {
  for (nl::FrequencySchedule schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
    nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
    cfg.periods = {1, 2};
    cfg.schedule = schedule;
    nl::Trainer64 straight(cfg, nl::MagParams<double>::init(cfg), fp64_adamw());
    std::vector<std::size_t> ids, tg;
    std::vector<double> losses;
    std::optional<nl::TrainerState64> saved;
    for (std::size_t n = 0; n < 8; ++n) {
      if (n == 4) saved = straight.state();  // level 1's error buffer holds frozen step 3's contribution
      fp64_chunk(n, cfg, ids, tg);
      losses.push_back(straight.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written)->loss);
    }
    auto resumed = nl::Trainer64::from_state(*saved);
    REQUIRE(resumed.ok());
    for (std::size_t n = 4; n < 8; ++n) {
      fp64_chunk(n, cfg, ids, tg);
      CHECK(resumed->build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written)->loss == losses[n]);
    }
    CHECK(resumed->params().to_flat() == straight.params().to_flat());
    CHECK(resumed->context().levels == straight.context().levels);
  }
}

TEST_CASE("trainer_fp64: a batch of 3 ends in the same bits on 1 and 3 threads") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  auto run = [&](std::size_t threads) {
    nl::Trainer64 t(cfg, nl::MagParams<double>::init(cfg), fp64_adamw(), 3);
    common::WorkerPool pool(threads);
    std::vector<std::vector<std::size_t>> ids(3), tg(3);
    for (std::size_t n = 0; n < 4; ++n) {
      std::vector<nl::Sequence> batch;
      for (std::size_t b = 0; b < 3; ++b) {
        fp64_chunk(3 * n + b, cfg, ids[b], tg[b]);
        batch.push_back({ids[b], tg[b]});
      }
      REQUIRE(t.build_batch_step(nltest::registry(), batch, nl::GradientPath::hand_written, &pool).ok());
    }
    return t.params().to_flat();
  };
  CHECK(run(1) == run(3));
}
