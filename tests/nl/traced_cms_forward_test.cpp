// Test Class 3: the tape path (traced_cms_forward + opaque blocks) against the hand-written
// cms_backward, every rule, k = 1, 2, 4, mixed active/frozen levels.
#include "nl/traced_cms_forward.hpp"

#include <cmath>

#include "mag_check.hpp"

namespace {

struct Worst {
  double rel = 0;  // over entries > 1e-4
  double abs = 0;
  std::size_t failed = 0;
};

// Per entry |tape - hand| <= 1e-6 |hand| + 1e-8 (the seed's class-3 tolerance) in fp32. That
// holds because the hand-written backward makes the tape's calls: the same BLAS gemm for every
// matmul VJP (nl/blas.hpp), the same element-wise formulas, the same registered rule backward,
// and gX summed in the tape's reverse-sweep order. (Earlier, plain loops against sgemm and a
// different order of the gX sum gave up to 5e-5 relative under the stress weights.)
void compare(Worst& w, const std::vector<float>& tape, const std::vector<float>& hand, const std::string& what) {
  REQUIRE(tape.size() == hand.size());
  for (std::size_t i = 0; i < tape.size(); ++i) {
    const double a = tape[i], b = hand[i], diff = std::fabs(a - b), den = std::max(std::fabs(a), std::fabs(b));
    if (den > 1e-4) w.rel = std::max(w.rel, diff / den);
    w.abs = std::max(w.abs, diff);
    if (!(diff <= 1e-8 + 1e-6 * den)) {
      if (w.failed++ < 3) {
        INFO(what << "[" << i << "] tape " << a << " hand " << b);
        CHECK(false);
      }
    }
  }
}

}  // namespace

TEST_CASE("traced_cms_forward: loss bitwise equal to cms_forward; tape gradients = cms_backward (all rules, k=1,2,4)") {
  static const tape::opaque::OpaqueRegistry& registry = nltest::registry();
  double worst = 0, worst_abs = 0;
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    for (std::size_t k : {1, 2, 4}) {
      const nl::MagConfig cfg = nltest::mag_config(rule, k);
      const nl::MagParams<float> p = nltest::stress_params(cfg).cast<float>();
      const auto ctx = nltest::cast_context<float>(nltest::stress_context(cfg, 9));
      const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
      for (const nl::Pulse& pulse : {nltest::mixed_pulse(k), nl::Conductor(cfg.periods, 1).pulse()}) {
        INFO(nl::to_string(rule) << " k=" << k);
        const auto f = nl::cms_forward<float>(cfg, p, ids, tg, pulse, ctx);
        REQUIRE(f.ok());
        const nl::MagGradients<float> hand = nl::cms_backward<float>(cfg, p, *f);
        const auto t = nl::tape_gradients(registry, cfg, p, ids, tg, pulse, ctx);
        REQUIRE(t.ok());
        CHECK(t->loss == f->loss);  // bitwise: same kernels, same order
        CHECK(t->context_after.levels == f->context_after.levels);
        Worst w;
        compare(w, t->grads.params.to_flat(), hand.params.to_flat(), "params");
        for (std::size_t l = 0; l < k; ++l) compare(w, t->grads.error[l].to_flat(), hand.error[l].to_flat(), "error buffer");
        CHECK(w.failed == 0);
        worst = std::max(worst, w.rel);
        worst_abs = std::max(worst_abs, w.abs);
        // A frozen level's error contribution is non-zero (its read reached W_Q^l).
        for (std::size_t l = 0; l < k; ++l) {
          if (pulse.is_active(l)) continue;
          double n = 0;
          for (float v : t->grads.error[l].w_q) n += std::fabs(v);
          CHECK(n > 0);
        }
      }
    }
  }
  MESSAGE("class 3: worst relative difference tape vs hand-written over entries > 1e-4: " << worst << ", worst absolute: " << worst_abs);
}

namespace {

// Gate biases +-4 dominate x-bar . w (|.| < 1 here): level 1 frozen, level 2 active, level 3
// frozen, whatever W_freq holds, while W_freq and b_freq still get the straight-through gradient.
template <typename T>
void mixed_gate_biases(nl::MagParams<T>& p) {
  for (std::size_t i = 0; i < p.b_freq.size(); ++i) p.b_freq[i] = i % 2 == 0 ? T(-4) : T(4);
}

}  // namespace

TEST_CASE("learned frequency gate (straight-through): tape == hand-written, the gate's gradient flows and matches FD") {
  static const tape::opaque::OpaqueRegistry& registry = nltest::registry();
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    for (std::size_t k : {2, 4}) {
      INFO(nl::to_string(rule) << " k=" << k);
      nl::MagConfig cfg = nltest::mag_config(rule, k);
      cfg.schedule = nl::FrequencySchedule::learned;
      REQUIRE(nl::validate(cfg).ok());
      nl::MagParams<double> p64 = nltest::stress_params(cfg);
      mixed_gate_biases(p64);
      const nl::MagParams<float> p = p64.cast<float>();
      REQUIRE(p.w_freq.size() == (k - 1) * cfg.d);
      const auto ctx64 = nltest::stress_context(cfg, 9);
      const auto ctx = nltest::cast_context<float>(ctx64);
      const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
      const nl::Pulse given = nl::Conductor(cfg.periods, 0).pulse();  // all active: the gate overrides it
      const auto f = nl::cms_forward<float>(cfg, p, ids, tg, given, ctx);
      REQUIRE(f.ok());
      CHECK(f->pulse.active == nltest::mixed_pulse(k).active);
      const nl::MagGradients<float> hand = nl::cms_backward<float>(cfg, p, *f);
      const auto t = nl::tape_gradients(registry, cfg, p, ids, tg, given, ctx);
      REQUIRE(t.ok());
      CHECK(t->pulse.active == f->pulse.active);
      CHECK(t->loss == f->loss);
      CHECK(t->context_after.levels == f->context_after.levels);
      Worst w;
      compare(w, t->grads.params.to_flat(), hand.params.to_flat(), "params");
      for (std::size_t l = 0; l < k; ++l) compare(w, t->grads.error[l].to_flat(), hand.error[l].to_flat(), "error buffer");
      CHECK(w.failed == 0);
      CHECK(w.abs == 0.0);  // same calls in the same order: bitwise
      double flows = 0;
      for (float v : hand.params.w_freq) flows += std::fabs(v);
      for (float v : hand.params.b_freq) flows += std::fabs(v);
      CHECK(flows > 1e-6);

      // The selection is exact (m in {0, 1}), so everything but the gate and E (which x-bar
      // reaches) is bit for bit the fixed schedule's with pulse = mask, whose gradients the
      // fp64 FD tests check.
      nl::MagConfig fixed_cfg = cfg;
      fixed_cfg.schedule = nl::FrequencySchedule::fixed;
      nl::MagParams<float> fixed_p = p;
      fixed_p.w_freq.clear(), fixed_p.b_freq.clear();
      const auto ff = nl::cms_forward<float>(fixed_cfg, fixed_p, ids, tg, f->pulse, ctx);
      REQUIRE(ff.ok());
      CHECK(ff->loss == f->loss);
      const nl::MagGradients<float> fixed_g = nl::cms_backward<float>(fixed_cfg, fixed_p, *ff);
      CHECK(fixed_g.params.w_o == hand.params.w_o);
      CHECK(fixed_g.params.w_q == hand.params.w_q);
      for (std::size_t l = 0; l < k; ++l) {
        CHECK(fixed_g.params.levels[l].to_flat() == hand.params.levels[l].to_flat());
        CHECK(fixed_g.error[l].to_flat() == hand.error[l].to_flat());
      }

      // fp64: b_freq's straight-through gradient is dL/dm at the hard mask (five-point FD in m),
      // and W_freq's is that times x-bar.
      const auto f64 = nl::cms_forward<double>(cfg, p64, ids, tg, given, ctx64);
      REQUIRE(f64.ok());
      const nl::MagGradients<double> g64 = nl::cms_backward<double>(cfg, p64, *f64);
      for (std::size_t i = 0; i + 1 < k; ++i) {
        auto loss_at = [&](double h) {
          std::vector<double> m = f64->freq.mask;
          m[i] += h;
          return nl::cms_forward_with_mask<double>(cfg, p64, ids, tg, m, ctx64)->loss;
        };
        const double e = 1e-4;
        const double fd = (8 * (loss_at(e) - loss_at(-e)) - (loss_at(2 * e) - loss_at(-2 * e))) / (12 * e);
        const double a = g64.params.b_freq[i];
        INFO("level " << i + 1 << " dL/dm analytic " << a << " fd " << fd);
        CHECK(std::fabs(a - fd) <= 1e-6 * std::max(std::fabs(a), std::fabs(fd)) + 1e-8);
        CHECK(std::fabs(a) > 1e-6);
        for (std::size_t j = 0; j < cfg.d; ++j) CHECK(g64.params.w_freq[i * cfg.d + j] == doctest::Approx(a * f64->freq.x_bar[j]).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("learned frequency gate: bad configuration and mask are errors naming the field") {
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 1);
  cfg.schedule = nl::FrequencySchedule::learned;
  const common::Status s = nl::validate(cfg);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message().find("schedule") != std::string::npos);
  cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  cfg.schedule = nl::FrequencySchedule::learned;
  nl::MagParams<double> p = nl::MagParams<double>::init(cfg);
  const auto ctx = nl::ContextMemory<double>::initial(cfg);
  const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(2);
  p.w_freq.pop_back();
  auto r = nl::cms_forward<double>(cfg, p, ids, tg, pulse, ctx);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("params/W_freq") != std::string::npos);
  p = nl::MagParams<double>::init(cfg), p.b_freq[0] = NAN;
  r = nl::cms_forward<double>(cfg, p, ids, tg, pulse, ctx);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("params/b_freq") != std::string::npos);
  const std::vector<double> two_values{1.0, 0.0};
  r = nl::cms_forward_with_mask<double>(cfg, nl::MagParams<double>::init(cfg), ids, tg, two_values, ctx);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("mask") != std::string::npos);
}
