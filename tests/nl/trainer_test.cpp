#include "nl/trainer.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <optional>

#include "mag_check.hpp"
#include "nl/adamw.hpp"
#include "nl/checkpoint.hpp"

namespace {

// Chunk n of a small deterministic corpus.
void chunk(std::size_t n, const nl::MagConfig& cfg, std::vector<std::size_t>& ids, std::vector<std::size_t>& tg) {
  ids.resize(cfg.seq_len), tg.resize(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) {
    ids[t] = (3 * n + 5 * t + 1) % cfg.vocab;
    tg[t] = (3 * n + 5 * t + 6) % cfg.vocab;
  }
}

nl::AdamWConfig adamw() {
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 2, o.total_steps = 10;
  return o;
}

}  // namespace

TEST_CASE("conductor: pulse is n mod C == 0; observe then advance") {
  nl::Conductor c({1, 2, 4});
  CHECK(c.pulse().active == std::vector<bool>{true, true, true});
  c.advance();
  CHECK(c.pulse().active == std::vector<bool>{true, false, false});
  c.advance();
  CHECK(c.pulse().active == std::vector<bool>{true, true, false});
  c.advance(), c.advance();
  CHECK(c.pulse().active == std::vector<bool>{true, true, true});
  CHECK(c.step() == 4);
}

TEST_CASE("adamw: schedule, clipping, frozen groups untouched") {
  nl::AdamWConfig o;
  o.lr = 1.0, o.warmup = 4, o.total_steps = 8;
  CHECK(nl::learning_rate(o, 0) == 0.0);
  CHECK(nl::learning_rate(o, 2) == 0.5);
  CHECK(nl::learning_rate(o, 4) == 1.0);
  CHECK(nl::learning_rate(o, 6) == doctest::Approx(0.5));
  CHECK(nl::learning_rate(o, 100) == doctest::Approx(0.0));
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  nl::MagParams<float> g = nl::MagParams<float>::zeros(cfg);
  g.e[0] = 3, g.levels[1].b_theta = 4;
  CHECK(nl::clip_global_norm(g, 1.0) == doctest::Approx(5.0));
  CHECK(g.e[0] == doctest::Approx(0.6f));
  CHECK(g.levels[1].b_theta == doctest::Approx(0.8f));
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const nl::MagParams<float> before = p;
  nl::FrequencyAwareAdamW opt(cfg, o);
  opt.step(p, g, nl::Pulse{{true, false}}, 0.1);
  CHECK(p.levels[1].to_flat() == before.levels[1].to_flat());
  CHECK(p.levels[0].to_flat() != before.levels[0].to_flat());  // weight decay moves it even at g = 0
  CHECK(opt.level_steps(1) == 0);
  CHECK(opt.attention_steps() == 1);
  // First Adam step moves a parameter by ~lr * sign(g) (+ decay).
  CHECK(p.e[0] == doctest::Approx(before.e[0] - 0.1 * (1.0 + 0.1 * before.e[0])).epsilon(1e-4));
}

TEST_CASE("trainer: 10 build steps, tape path and hand-written path give the same loss trajectory") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
   for (nl::FrequencySchedule schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
    INFO(nl::to_string(rule) << (schedule == nl::FrequencySchedule::learned ? " learned schedule" : ""));
    nl::MagConfig cfg = nltest::mag_config(rule, 2);
    cfg.periods = {1, 2};  // level 1 alternates frozen / active, so error buffers are exercised
    cfg.schedule = schedule;
    nl::Trainer tape_run(cfg, nl::MagParams<float>::init(cfg), adamw());
    nl::Trainer hand_run(cfg, nl::MagParams<float>::init(cfg), adamw());
    std::vector<std::size_t> ids, tg;
    for (std::size_t n = 0; n < 10; ++n) {
      chunk(n, cfg, ids, tg);
      const auto a = tape_run.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
      const auto b = hand_run.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      // The hand-written backward makes the tape's calls in the tape's order: the trajectories
      // are identical, not just within fp32 tolerance.
      CHECK(a->loss == b->loss);
      CHECK(a->pulse.active == b->pulse.active);
      if (n == 9) CHECK(b->loss < std::log(16.0f));
    }
    CHECK(tape_run.params().to_flat() == hand_run.params().to_flat());
    CHECK(tape_run.step() == 10);
   }
  }
}

TEST_CASE("trainer: a resumed run matches an uninterrupted one bit for bit") {
 for (nl::FrequencySchedule schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  cfg.schedule = schedule;
  nl::Trainer straight(cfg, nl::MagParams<float>::init(cfg), adamw());
  std::vector<std::size_t> ids, tg;
  std::vector<float> losses;
  std::optional<nl::Trainer> checkpoint;
  for (std::size_t n = 0; n < 10; ++n) {
    if (n == 5) checkpoint = straight;  // the whole state is a value
    chunk(n, cfg, ids, tg);
    losses.push_back(straight.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape)->loss);
  }
  nl::Trainer resumed = *checkpoint;
  for (std::size_t n = 5; n < 10; ++n) {
    chunk(n, cfg, ids, tg);
    CHECK(resumed.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape)->loss == losses[n]);
  }
  CHECK(resumed.params().to_flat() == straight.params().to_flat());
  CHECK(resumed.context().levels == straight.context().levels);
 }
}

TEST_CASE("trainer: frozen level gradients wait in the error buffer and are applied when the level is active") {
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  cfg.periods = {1, 3};
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), adamw());
  std::vector<std::size_t> ids, tg;
  chunk(0, cfg, ids, tg);
  REQUIRE(t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape).ok());  // step 0: all active
  CHECK(t.error_buffer(1).count() == 0);
  const std::vector<float> level1 = t.params().levels[1].to_flat();
  const std::vector<float> ctx1 = t.context().levels[1];
  for (std::size_t n = 1; n < 3; ++n) {  // steps 1, 2: level 1 frozen
    chunk(n, cfg, ids, tg);
    REQUIRE(t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape).ok());
    CHECK(t.params().levels[1].to_flat() == level1);
    CHECK(t.context().levels[1] == ctx1);
  }
  CHECK(t.error_buffer(1).count() == 2);
  double eb = 0;
  for (float v : t.error_buffer(1).sum().w_q) eb += std::fabs(v);
  CHECK(eb > 0);
  for (float v : t.error_buffer(1).sum().w_k) CHECK(v == 0.0f);  // only W_Q^l is read while frozen
  chunk(3, cfg, ids, tg);
  REQUIRE(t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape).ok());  // step 3: active again
  CHECK(t.error_buffer(1).count() == 0);
  CHECK(t.params().levels[1].to_flat() != level1);
}

TEST_CASE("trainer: a step that meets NaN is refused with the field named, and changes nothing") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 1);
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  p.w_o[5] = NAN;
  nl::Trainer t(cfg, p, adamw());
  std::vector<std::size_t> ids, tg;
  chunk(0, cfg, ids, tg);
  for (nl::GradientPath path : {nl::GradientPath::tape, nl::GradientPath::hand_written}) {
    const auto r = t.build_step(nltest::registry(), ids, tg, path);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message().find("W_O") != std::string::npos);
    CHECK(t.step() == 0);
  }
  // Diverging memory (huge weights) gives a non-finite value somewhere: an error, not a NaN update.
  nl::MagParams<float> big = nl::MagParams<float>::init(cfg);
  for (float& v : big.levels[0].w_k) v *= 1e18f;
  for (float& v : big.e) v *= 1e18f;
  nl::Trainer u(cfg, big, adamw());
  const auto r = u.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written);
  if (!r.ok()) {
    CHECK(r.error().message().find("not finite") != std::string::npos);
    CHECK(u.params().to_flat() == big.to_flat());
  } else {
    for (float v : u.params().to_flat()) CHECK(std::isfinite(v));
  }
}

TEST_CASE("trainer: a failed step says by its type whether it went non-finite") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  std::vector<std::size_t> ids, tg;
  chunk(0, cfg, ids, tg);
  // Diverging weights: every path ends in a NaN or Inf (loss, tape value or gradient).
  nl::MagParams<float> big = nl::MagParams<float>::init(cfg);
  for (float& v : big.e) v = 3e38f;
  for (float& v : big.w_o) v = 3e38f;
  for (nl::GradientPath path : {nl::GradientPath::tape, nl::GradientPath::hand_written}) {
    nl::Trainer t(cfg, big, adamw());
    const auto r = t.build_step(nltest::registry(), ids, tg, path);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind() == nl::StepFailure::non_finite);
    CHECK(t.step() == 0);
  }
  // A chunk of the wrong length is a wrong call, not a divergence.
  std::vector<std::size_t> short_ids(ids.begin(), ids.end() - 1), short_tg(tg.begin(), tg.end() - 1);
  for (nl::GradientPath path : {nl::GradientPath::tape, nl::GradientPath::hand_written}) {
    nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), adamw());
    const auto r = t.build_step(nltest::registry(), short_ids, short_tg, path);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind() == nl::StepFailure::invalid);
    CHECK(r.error().message().find("seq_len") != std::string::npos);
  }
}

namespace {

// `steps` batched steps of a B-stream trainer (stream b reads chunk 10 b + n), on a pool of
// `threads`; returns the losses and the final state as checkpoint bytes.
std::pair<std::vector<float>, std::string> batched_run(std::size_t batch, std::size_t threads, std::size_t steps,
                                                       nl::StepObserver* observer = nullptr) {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), adamw(), batch);
  common::WorkerPool pool(threads);
  std::vector<std::vector<std::size_t>> ids(batch), tg(batch);
  std::vector<float> losses;
  for (std::size_t n = 0; n < steps; ++n) {
    std::vector<nl::Sequence> seqs;
    for (std::size_t b = 0; b < batch; ++b) {
      chunk(10 * b + n, cfg, ids[b], tg[b]);
      seqs.push_back({ids[b], tg[b]});
    }
    if (n == 5) t.reset_context(1);  // stream 1 wraps: only its memory starts over
    auto r = t.build_batch_step(nltest::registry(), seqs, nl::GradientPath::tape, &pool, nullptr, nullptr, observer);
    REQUIRE(r.ok());
    losses.push_back(r->loss);
  }
  return {losses, nl::encode_checkpoint({t.state(), ""})};
}

}  // namespace

TEST_CASE("trainer: a batched trainer ends in the same bits on 1, 2 and 3 threads (B = 3 and B = 8)") {
  for (std::size_t batch : {3, 8}) {
    INFO("B=" << batch);
    const auto base = batched_run(batch, 1, 10);  // 10 steps: level 1 frozen at 1..7, active at 8
    for (std::size_t threads : {2, 3}) CHECK(batched_run(batch, threads, 10) == base);
  }
}

TEST_CASE("trainer: batch 1 through build_batch_step is build_step; a batched trainer keeps one context per stream") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  nl::Trainer a(cfg, nl::MagParams<float>::init(cfg), adamw()), b = a;
  std::vector<std::size_t> ids, tg;
  for (std::size_t n = 0; n < 4; ++n) {
    chunk(n, cfg, ids, tg);
    const nl::Sequence one{ids, tg};
    auto ra = a.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
    auto rb = b.build_batch_step(nltest::registry(), std::span(&one, 1), nl::GradientPath::tape);
    REQUIRE((ra.ok() && rb.ok()));
    CHECK(ra->loss == rb->loss);
  }
  CHECK(nl::encode_checkpoint({a.state(), ""}) == nl::encode_checkpoint({b.state(), ""}));
  nl::Trainer three(cfg, nl::MagParams<float>::init(cfg), adamw(), 3);
  CHECK(three.batch() == 3);
  CHECK(three.state().more_contexts.size() == 2);
  // One sequence for a trainer of three is a wrong call, and changes nothing.
  auto r = three.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message() == "build step: 1 sequences for a trainer of batch 3");
  CHECK(three.step() == 0);
}

namespace {

// Every phase reported, from whichever thread.
struct Recorder final : nl::StepObserver {
  struct Seen {
    nl::StepPhase phase;
    std::optional<std::size_t> stream;
    nl::StepClock::time_point begin, end;
  };
  std::mutex mutex;
  std::vector<Seen> seen;
  void phase(nl::StepPhase p, std::optional<std::size_t> s, nl::StepClock::time_point b, nl::StepClock::time_point e) override {
    const std::lock_guard lock(mutex);
    seen.push_back({p, s, b, e});
  }
  void tier_move(const nl::TierMove&) override {}
};

}  // namespace

TEST_CASE("trainer: an observer is told each stream's forward and backward, the reduction and clip+AdamW; the bits stay") {
  Recorder rec;
  const std::size_t batch = 3, steps = 4;
  CHECK(batched_run(batch, 2, steps, &rec) == batched_run(batch, 2, steps));
  std::map<std::pair<nl::StepPhase, std::optional<std::size_t>>, std::size_t> count;
  for (const auto& s : rec.seen) {
    CHECK(s.begin <= s.end);
    ++count[{s.phase, s.stream}];
  }
  std::map<std::pair<nl::StepPhase, std::optional<std::size_t>>, std::size_t> want{{{nl::StepPhase::reduce, std::nullopt}, steps},
                                                                                  {{nl::StepPhase::optimizer, std::nullopt}, steps}};
  for (std::size_t b = 0; b < batch; ++b) {
    want[{nl::StepPhase::forward, b}] = steps;
    want[{nl::StepPhase::backward, b}] = steps;
  }
  CHECK(count == want);
  // Within a step: a stream's forward ends before its backward begins, and every stream's
  // backward before the reduction, which comes before the update.
  for (std::size_t i = 0; i + 1 < rec.seen.size(); ++i) {
    const auto& a = rec.seen[i];
    if (a.phase == nl::StepPhase::reduce) {
      CHECK(rec.seen[i + 1].phase == nl::StepPhase::optimizer);
      CHECK(a.end <= rec.seen[i + 1].begin);
    }
    if (a.phase != nl::StepPhase::forward) continue;
    for (std::size_t j = i + 1; j < rec.seen.size(); ++j) {
      if (rec.seen[j].stream == a.stream) {
        CHECK(rec.seen[j].phase == nl::StepPhase::backward);
        CHECK(a.end <= rec.seen[j].begin);
        break;
      }
    }
  }
}
