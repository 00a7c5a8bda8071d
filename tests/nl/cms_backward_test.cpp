// cms_backward (the hand-written oracle) against finite differences of cms_forward.
#include "nl/cms_backward.hpp"

#include <cmath>

#include "mag_check.hpp"
#include "nl/traced_cms_forward.hpp"

namespace {

using nltest::mag_config;

// fp64: every parameter entry, eps 1e-6, stress variant, mixed active/frozen levels.
void fp64_check(nl::RuleKind rule, std::size_t k, std::size_t seq_len) {
  nl::MagConfig cfg = mag_config(rule, k);
  cfg.seq_len = cfg.window = seq_len;
  const nl::MagParams<double> p = nltest::stress_params(cfg);
  const nl::ContextMemory<double> ctx = nltest::stress_context(cfg, 5);
  const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(k);
  const auto f = nl::cms_forward<double>(cfg, p, ids, tg, pulse, ctx);
  REQUIRE(f.ok());
  const nl::MagGradients<double> g = nl::cms_backward<double>(cfg, p, *f);
  for (std::size_t l = 0; l < k; ++l) {
    if (pulse.is_active(l)) continue;
    CHECK(g.params.levels[l].to_flat() == nl::LevelParams<double>::zeros(cfg.d, nl::has_omega(rule)).to_flat());
  }
  nltest::FdReport r;
  nltest::fd_compare(r, "params", p.to_flat(), [&](const std::vector<double>& flat) {
    return nl::cms_forward<double>(cfg, nl::MagParams<double>::from_flat(cfg, flat), ids, tg, pulse, ctx)->loss;
  }, nltest::full_gradient(g, pulse));
  nltest::require_pass(r, std::string(nl::to_string(rule)) + " MAG k=" + std::to_string(k) + " s=" +
                              std::to_string(seq_len) + " fp64 cms_backward vs FD");
}

}  // namespace

TEST_CASE("cms_backward: every rule, k=1,2, mixed active/frozen, stress variant: fp64 FD on every parameter") {
  for (nl::RuleKind rule : nl::kAllRuleKinds)
    for (std::size_t k : {1, 2}) fp64_check(rule, k, 4);
}

TEST_CASE("cms_backward: every rule, k=4, mixed active/frozen, stress variant: fp64 FD on every parameter") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) fp64_check(rule, 4, 4);
}

// Upstream's longer chunks (Trellis included), split in three cases to keep each ctest short
// in the sanitized CI build (the five-point stencil costs four losses per entry).
TEST_CASE("cms_backward: upstream's longer chunks in fp64: k=2 at s=8") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) fp64_check(rule, 2, 8);
}

TEST_CASE("cms_backward: upstream's longer chunks in fp64: k=4 at s=16, the first five rules") {
  for (std::size_t i = 0; i < 5; ++i) fp64_check(nl::kAllRuleKinds[i], 4, 16);
}

TEST_CASE("cms_backward: upstream's longer chunks in fp64: k=4 at s=16, the last four rules (Trellis included)") {
  for (std::size_t i = 5; i < std::size(nl::kAllRuleKinds); ++i) fp64_check(nl::kAllRuleKinds[i], 4, 16);
}

TEST_CASE("cms_backward and the tape path: the fp32 protocol of nltrain-math §11 (eps 1e-2, rel 0.10, floor 5e-4, sampled)") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    for (std::size_t k : {1, 2, 4}) {
      const nl::MagConfig cfg = mag_config(rule, k);
      nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
      const bool theta0 = rule == nl::RuleKind::delta || rule == nl::RuleKind::titans ||
                          rule == nl::RuleKind::trellis || rule == nl::RuleKind::atlas;
      for (nl::LevelParams<float>& l : p.levels) {
        l.b_alpha = 0;
        if (theta0) l.b_theta = 0;
        if (rule == nl::RuleKind::titans || rule == nl::RuleKind::atlas) l.b_eta = 0;
      }
      const auto ctx = nl::ContextMemory<float>::initial(cfg);
      const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
      nl::Pulse all;
      all.active.assign(k, true);
      const auto f = nl::cms_forward<float>(cfg, p, ids, tg, all, ctx);
      REQUIRE(f.ok());
      CHECK(std::fabs(f->loss - std::log(16.0f)) < 0.5f);  // initial loss ~ ln V
      const std::vector<float> g = nl::cms_backward<float>(cfg, p, *f).params.to_flat();
      const auto t = nl::tape_gradients(nltest::registry(), cfg, p, ids, tg, all, ctx);
      REQUIRE(t.ok());
      const std::vector<float> g_tape = t->grads.params.to_flat();
      std::vector<float> flat = p.to_flat();
      // Sample 20 indices per tensor at stride max(1, n/20), one per scalar bias.
      std::vector<std::size_t> sizes = {cfg.vocab * cfg.d, 64, 64, 64, 64, cfg.d * cfg.vocab};
      for (std::size_t l = 0; l < k; ++l) {
        for (std::size_t n : {64, 64, 64, 16, 16, 16, 1, 1, 1}) sizes.push_back(n);
        if (nl::has_omega(rule)) sizes.push_back(128);
      }
      std::size_t off = 0, failed = 0, checked = 0;
      for (std::size_t n : sizes) {
        const std::size_t stride = std::max<std::size_t>(1, n / 20);
        for (std::size_t i = 0; i < n && i / stride < 20; i += stride) {
          const std::size_t j = off + i;
          const float keep = flat[j];
          flat[j] = keep + 1e-2f;
          const float hi = nl::cms_forward<float>(cfg, nl::MagParams<float>::from_flat(cfg, flat), ids, tg, all, ctx)->loss;
          flat[j] = keep - 1e-2f;
          const float lo = nl::cms_forward<float>(cfg, nl::MagParams<float>::from_flat(cfg, flat), ids, tg, all, ctx)->loss;
          flat[j] = keep;
          const double fd = (double(hi) - double(lo)) / 2e-2;
          for (const double a : {double(g[j]), double(g_tape[j])}) {  // hand-written, then tape
            const double den = std::max(std::fabs(a), std::fabs(fd));
            ++checked;
            if (den >= 5e-4 && std::fabs(a - fd) / den >= 0.10) {
              ++failed;
              INFO(nl::to_string(rule) << " k=" << k << " flat[" << j << "] analytic " << a << " fd " << fd);
              CHECK(false);
            }
          }
        }
        off += n;
      }
      REQUIRE(off == flat.size());
      CHECK(failed == 0);
      CHECK(checked > 100);
    }
  }
}

TEST_CASE("cms_forward: bad input is an error naming the field, never a crash") {
  const nl::MagConfig cfg = mag_config(nl::RuleKind::delta, 2);
  const auto p = nl::MagParams<double>::init(cfg);
  const auto ctx = nl::ContextMemory<double>::initial(cfg);
  const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(2);
  auto msg = [&](const nl::MagConfig& c, const nl::MagParams<double>& pp, std::vector<std::size_t> i,
                 const nl::ContextMemory<double>& cx) {
    const auto f = nl::cms_forward<double>(c, pp, i, tg, pulse, cx);
    return f.ok() ? std::string("ok") : f.error().message();
  };
  CHECK(msg(cfg, p, ids, ctx) == "ok");
  nl::MagConfig c = cfg;
  c.heads = 3;
  CHECK(msg(c, p, ids, ctx).find("heads") != std::string::npos);
  c = cfg, c.window = 5;
  CHECK(msg(c, p, ids, ctx).find("window") != std::string::npos);
  c = cfg, c.periods.clear();
  CHECK(msg(c, p, ids, ctx).find("k=0") != std::string::npos);
  c = cfg, c.vocab = 0;
  CHECK(msg(c, p, ids, ctx).find("vocab") != std::string::npos);
  auto bad_p = p;
  bad_p.w_o.pop_back();
  CHECK(msg(cfg, bad_p, ids, ctx).find("params/W_O") != std::string::npos);
  bad_p = p, bad_p.u_emb[3] = NAN;
  CHECK(msg(cfg, bad_p, ids, ctx).find("params/U_emb") != std::string::npos);
  bad_p = p, bad_p.levels[1].w_theta[0] = INFINITY;
  CHECK(msg(cfg, bad_p, ids, ctx).find("params/levels/1") != std::string::npos);
  bad_p = p, bad_p.levels.pop_back();
  CHECK(msg(cfg, bad_p, ids, ctx).find("params/levels") != std::string::npos);
  CHECK(msg(cfg, p, {1, 2, 99, 3}, ctx).find("ids/2") != std::string::npos);
  auto bad_ctx = ctx;
  bad_ctx.levels[0][0] = NAN;
  CHECK(msg(cfg, p, ids, bad_ctx).find("context/0") != std::string::npos);
}
