#include "tape/float_pool.hpp"

#include <limits>

#include "mag_check.hpp"
#include "nl/traced_cms_forward.hpp"

namespace {

// A configuration whose state caches are large enough to be pooled, for every rule.
nl::MagConfig pooled_config(nl::RuleKind rule) {
  nl::MagConfig cfg = nltest::mag_config(rule, 2);
  cfg.d = cfg.rule_cfg.d = 32, cfg.seq_len = cfg.window = 32;
  cfg.rule_cfg.d_h = cfg.rule_cfg.d_c = 16, cfg.rule_cfg.m = 32;
  return cfg;
}

std::vector<float> flat_grads(const nl::TapeGradients& g) {
  std::vector<float> out = g.grads.params.to_flat();
  out.push_back(g.loss);
  for (const auto& level : g.grads.error) {
    const auto f = level.to_flat();
    out.insert(out.end(), f.begin(), f.end());
  }
  for (const auto& level : g.context_after.levels) out.insert(out.end(), level.begin(), level.end());
  return out;
}

}  // namespace

TEST_CASE("cache_pool: every rule's gradients are bitwise the same with caches reused from another step") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    CAPTURE(nl::to_string(rule));
    const nl::MagConfig cfg = pooled_config(rule);
    const auto params_b = nl::MagParams<float>::init(cfg);
    const auto params_a = nltest::stress_params(cfg).cast<float>();
    const auto ctx = nl::ContextMemory<float>::initial(cfg);
    const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
    std::vector<std::size_t> ids_a(ids.rbegin(), ids.rend());
    const nl::Pulse pulse{{true, true}};
    tape::FloatPool::local().clear();
    const auto fresh = nl::tape_gradients(nltest::registry(), cfg, params_b, ids, tg, pulse, ctx);
    REQUIRE(fresh.ok());
    const std::size_t reuses = tape::FloatPool::local().reuses();
    REQUIRE(nl::tape_gradients(nltest::registry(), cfg, params_a, ids_a, tg, pulse, ctx).ok());
    const auto reused = nl::tape_gradients(nltest::registry(), cfg, params_b, ids, tg, pulse, ctx);
    REQUIRE(reused.ok());
    CHECK(tape::FloatPool::local().reuses() >= reuses + 4);  // two levels, two steps: the pool was used
    CHECK(flat_grads(*reused) == flat_grads(*fresh));
    tape::FloatPool::local().fill(std::numeric_limits<float>::quiet_NaN());
    const auto poisoned = nl::tape_gradients(nltest::registry(), cfg, params_b, ids, tg, pulse, ctx);
    REQUIRE(poisoned.ok());
    CHECK(flat_grads(*poisoned) == flat_grads(*fresh));
  }
  tape::FloatPool::local().clear();
}

TEST_CASE("cache_pool: a training loop's pool does not grow") {
  const nl::MagConfig cfg = pooled_config(nl::RuleKind::delta);
  const auto params = nl::MagParams<float>::init(cfg);
  const auto ctx = nl::ContextMemory<float>::initial(cfg);
  const auto ids = nltest::chunk_ids(cfg), tg = nltest::chunk_targets(cfg);
  tape::FloatPool& pool = tape::FloatPool::local();
  pool.clear();
  REQUIRE(nl::tape_gradients(nltest::registry(), cfg, params, ids, tg, nl::Pulse{{true, true}}, ctx).ok());
  const std::size_t after_one = pool.pooled_bytes();
  CHECK(after_one > 0);
  for (int i = 0; i < 200; ++i) {
    REQUIRE(nl::tape_gradients(nltest::registry(), cfg, params, ids, tg, nl::Pulse{{true, true}}, ctx).ok());
  }
  CHECK(pool.pooled_bytes() == after_one);
  pool.clear();
}
