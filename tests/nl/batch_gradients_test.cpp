// nl::batch_gradients: B sequences' mean loss and gradient, the same bits on any number of threads.
#include "nl/batch_gradients.hpp"

#include "mag_check.hpp"
#include "nl/traced_cms_forward.hpp"

namespace {

// Sequence b of a batch: its own tokens, and a context memory of its own.
struct Batch {
  std::vector<std::vector<std::size_t>> ids, targets;
  std::vector<nl::Sequence> seqs;
  std::vector<nl::ContextMemory<float>> contexts;
};

Batch make_batch(const nl::MagConfig& cfg, std::size_t n) {
  Batch b;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> ids(cfg.seq_len), tg(cfg.seq_len);
    for (std::size_t t = 0; t < cfg.seq_len; ++t) ids[t] = (7 * i + 3 * t + 1) % cfg.vocab, tg[t] = (5 * i + 3 * t + 2) % cfg.vocab;
    b.ids.push_back(ids), b.targets.push_back(tg);
    b.contexts.push_back(nltest::cast_context<float>(nltest::stress_context(cfg, 11 + static_cast<unsigned>(i))));
  }
  for (std::size_t i = 0; i < n; ++i) b.seqs.push_back({b.ids[i], b.targets[i]});
  return b;
}

nl::BatchGradients run(const nl::MagConfig& cfg, const nl::MagParams<float>& p, const Batch& b, const nl::Pulse& pulse,
                       nl::GradientPath path = nl::GradientPath::tape, common::WorkerPool* pool = nullptr) {
  auto r = nl::batch_gradients(nltest::registry(), cfg, p, b.seqs, b.contexts, pulse, path, pool);
  REQUIRE(r.ok());
  return std::move(*r);
}

std::vector<float> all_of(const nl::BatchGradients& g, const nl::Pulse& pulse) {
  std::vector<float> v = nltest::full_gradient(g.grads, pulse);
  v.push_back(g.loss);
  for (const nl::ContextMemory<float>& c : g.contexts_after)
    for (const auto& l : c.levels) v.insert(v.end(), l.begin(), l.end());
  return v;
}

}  // namespace

TEST_CASE("batch_gradients: loss and gradient are the per-sequence ones summed in order b = 0..B-1, then divided by B") {
  for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::titans, nl::RuleKind::atlas}) {
    INFO(nl::to_string(rule));
    const nl::MagConfig cfg = nltest::mag_config(rule, 2);
    const nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
    const nl::Pulse pulse = nltest::mixed_pulse(2);  // level 1 frozen: its share goes to `error`
    const Batch batch = make_batch(cfg, 3);
    std::vector<float> sum;
    float loss = 0;
    for (std::size_t b = 0; b < 3; ++b) {
      auto one = nl::tape_gradients(nltest::registry(), cfg, p, batch.ids[b], batch.targets[b], pulse, batch.contexts[b]);
      REQUIRE(one.ok());
      const std::vector<float> g = nltest::full_gradient(one->grads, pulse);
      if (b == 0) {
        sum = g, loss = one->loss;
      } else {
        for (std::size_t i = 0; i < g.size(); ++i) sum[i] += g[i];
        loss += one->loss;
      }
    }
    for (float& v : sum) v /= 3.0f;
    const nl::BatchGradients got = run(cfg, p, batch, pulse);
    CHECK(got.loss == loss / 3.0f);
    CHECK(nltest::full_gradient(got.grads, pulse) == sum);
    REQUIRE(got.contexts_after.size() == 3);
    auto second = nl::tape_gradients(nltest::registry(), cfg, p, batch.ids[1], batch.targets[1], pulse, batch.contexts[1]);
    CHECK(got.contexts_after[1].levels == second->context_after.levels);
    // The frozen level's error-buffer share is averaged too, and is not zero.
    CHECK(std::any_of(got.grads.error[1].w_q.begin(), got.grads.error[1].w_q.end(), [](float v) { return v != 0; }));
  }
}

TEST_CASE("batch_gradients: a batch of one is the sequence's own loss and gradient, bit for bit") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  const nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(2);
  const Batch batch = make_batch(cfg, 1);
  auto one = nl::tape_gradients(nltest::registry(), cfg, p, batch.ids[0], batch.targets[0], pulse, batch.contexts[0]);
  REQUIRE(one.ok());
  const nl::BatchGradients got = run(cfg, p, batch, pulse);
  CHECK(got.loss == one->loss);
  CHECK(nltest::full_gradient(got.grads, pulse) == nltest::full_gradient(one->grads, pulse));
}

TEST_CASE("batch_gradients: the same bits on 1, 2 and 3 threads (B = 3 and B = 8), tape and hand-written alike") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  const nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(2);
  for (std::size_t n : {3, 8}) {
    INFO("B=" << n);
    const Batch batch = make_batch(cfg, n);
    const std::vector<float> base = all_of(run(cfg, p, batch, pulse), pulse);
    for (std::size_t threads : {1, 2, 3}) {
      common::WorkerPool pool(threads);
      CHECK(all_of(run(cfg, p, batch, pulse, nl::GradientPath::tape, &pool), pulse) == base);
      // The hand-written backward agrees with the tape to the last bit, batched too.
      CHECK(all_of(run(cfg, p, batch, pulse, nl::GradientPath::hand_written, &pool), pulse) == base);
    }
  }
}

TEST_CASE("batch_gradients: a failing sequence is named; wrong counts and a learned schedule with B > 1 are refused") {
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  const nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(2);
  Batch batch = make_batch(cfg, 3);
  batch.ids[1][2] = cfg.vocab;  // out of the vocabulary
  common::WorkerPool pool(2);
  auto r = nl::batch_gradients(nltest::registry(), cfg, p, batch.seqs, batch.contexts, pulse, nl::GradientPath::tape, &pool);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().rfind("sequence 1: ", 0) == 0);
  CHECK(r.error().kind() == nl::StepFailure::invalid);
  batch = make_batch(cfg, 3);
  r = nl::batch_gradients(nltest::registry(), cfg, p, batch.seqs, std::span(batch.contexts).first(2), pulse, nl::GradientPath::tape);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message() == "batch: 3 sequences for 2 context memories");
  cfg.schedule = nl::FrequencySchedule::learned;
  const nl::MagParams<float> learned = nl::MagParams<float>::init(cfg);
  r = nl::batch_gradients(nltest::registry(), cfg, learned, batch.seqs, batch.contexts, pulse, nl::GradientPath::tape);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("learned frequency schedule") != std::string::npos);
}
