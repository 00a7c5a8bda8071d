#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "nl/blas.hpp"
#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"

// The audit scalar through BLAS and through a whole step: what fp32 computes must lie inside the
// bound Tracked32 carries, entry by entry.

namespace {

using nl::Tracked32;

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo = -1, float hi = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

std::vector<Tracked32> tracked(const std::vector<float>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("tracked blas: sgemm of the fp32 operands lies inside the bound, for every transposition and beta") {
  const std::size_t m = 37, n = 29, k = 301;  // k: a long dot product, where summation order matters
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (float beta : {0.0f, 1.0f}) {
        CAPTURE(ta);
        CAPTURE(tb);
        CAPTURE(beta);
        const std::vector<float> a = random_floats(m * k, 1), b = random_floats(k * n, 2), c0 = random_floats(m * n, 3);
        std::vector<float> c = c0;
        nl::blas::gemm(ta, tb, m, n, k, a.data(), b.data(), beta, c.data());
        const std::vector<Tracked32> ta32 = tracked(a), tb32 = tracked(b);
        std::vector<Tracked32> tc = tracked(c0);
        nl::blas::gemm(ta, tb, m, n, k, ta32.data(), tb32.data(), Tracked32(beta), tc.data());
        double widest = 0;
        for (std::size_t i = 0; i < m * n; ++i) {
          REQUIRE(std::abs(static_cast<double>(c[i]) - tc[i].v) <= tc[i].e);
          widest = std::max(widest, tc[i].e);
        }
        CHECK(widest < 2e-3);  // k u sum |a||b|, about 301 * 6e-8 * 301 / 4: not vacuous
      }
    }
  }
}

TEST_CASE("tracked blas: gemv both ways and ger lie inside their bounds") {
  const std::size_t m = 70, n = 65;  // m * n above dense's BLAS threshold
  const std::vector<float> a = random_floats(m * n, 4), x = random_floats(std::max(m, n), 5), y0 = random_floats(std::max(m, n), 6);
  for (bool ta : {false, true}) {
    std::vector<float> y = y0;
    std::vector<Tracked32> ty = tracked(y0);
    nl::blas::gemv(ta, m, n, a.data(), x.data(), 1.0f, y.data());
    const std::vector<Tracked32> a32 = tracked(a), x32 = tracked(x);
    nl::blas::gemv(ta, m, n, a32.data(), x32.data(), Tracked32(1.0f), ty.data());
    for (std::size_t i = 0; i < (ta ? n : m); ++i) REQUIRE(std::abs(static_cast<double>(y[i]) - ty[i].v) <= ty[i].e);
  }
  std::vector<float> g = a;
  std::vector<Tracked32> tg = tracked(a);
  nl::blas::ger(m, n, 0.3f, x.data(), y0.data(), g.data());
  const std::vector<Tracked32> x32 = tracked(x), y32 = tracked(y0);
  nl::blas::ger(m, n, Tracked32(0.3f), x32.data(), y32.data(), tg.data());
  for (std::size_t i = 0; i < m * n; ++i) REQUIRE(std::abs(static_cast<double>(g[i]) - tg[i].v) <= tg[i].e);
}

TEST_CASE("tracked step: the fp32 forward and hand-written backward lie inside the Tracked32 step's bounds") {
  for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::titans, nl::RuleKind::hebbian, nl::RuleKind::moneta}) {
    CAPTURE(static_cast<int>(rule));
    nl::MagConfig cfg;
    cfg.vocab = 256, cfg.d = 16, cfg.heads = 2, cfg.seq_len = 12, cfg.window = 8, cfg.rule = rule, cfg.seed = 3;
    cfg.rule_cfg.d = 16;
    cfg.periods = {1, 4};
    const nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
    std::vector<std::size_t> ids(cfg.seq_len), targets(cfg.seq_len);
    for (std::size_t t = 0; t < cfg.seq_len; ++t) ids[t] = (t * 37 + 11) % 256, targets[t] = (t * 53 + 5) % 256;
    const nl::Pulse pulse{{true, true}};
    nl::ContextMemory<float> ctx = nl::ContextMemory<float>::initial(cfg);
    auto f = nl::cms_forward<float>(cfg, p, ids, targets, pulse, ctx);
    REQUIRE(f.ok());
    const std::vector<float> g = nl::cms_backward<float>(cfg, p, *f).params.to_flat();

    nl::ContextMemory<Tracked32> tctx = nl::ContextMemory<Tracked32>::initial(cfg);
    auto tf = nl::cms_forward<Tracked32>(cfg, p.cast<Tracked32>(), ids, targets, pulse, tctx);
    REQUIRE(tf.ok());
    CHECK(std::abs(static_cast<double>(f->loss) - tf->loss.v) <= tf->loss.e);
    const std::vector<Tracked32> tg = nl::cms_backward_consuming<Tracked32>(cfg, p.cast<Tracked32>(), *tf).params.to_flat();
    REQUIRE(g.size() == tg.size());
    std::size_t tight = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      CAPTURE(i);
      REQUIRE(std::abs(static_cast<double>(g[i]) - tg[i].v) <= tg[i].e);
      tight += tg[i].e <= 1e-3 * std::abs(tg[i].v);
    }
    CHECK(tight > g.size() / 2);  // most entries' bounds within 0.1% of the entry: not vacuous
  }
}
