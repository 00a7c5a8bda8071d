#pragma once
// A Trainer a few steps in (level 1 frozen with a non-empty error buffer), for the nl_store tests.
#include <vector>

#include "nl/mag_check.hpp"
#include "nl/trainer.hpp"

namespace storetest {

inline nl::Trainer trained(nl::RuleKind rule, std::size_t k, std::size_t steps,
                           nl::FrequencySchedule schedule = nl::FrequencySchedule::fixed) {
  nl::MagConfig cfg = nltest::mag_config(rule, k);
  cfg.schedule = schedule;
  nl::AdamWConfig o;
  o.lr = 0.1 + 0.2;  // 0.30000000000000004: a double whose shortest decimal needs 17 digits
  o.warmup = 2, o.total_steps = 30, o.eps = 1e-8 / 3;
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), o);
  std::vector<std::size_t> ids(cfg.seq_len), tg(cfg.seq_len);
  for (std::size_t n = 0; n < steps; ++n) {
    for (std::size_t i = 0; i < cfg.seq_len; ++i) ids[i] = (3 * n + 5 * i + 1) % cfg.vocab, tg[i] = (3 * n + 5 * i + 6) % cfg.vocab;
    auto r = t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
    REQUIRE(r.ok());
  }
  return t;
}

// The same run in binary64 (nltrain train --fp64: the hand-written backward).
inline nl::Trainer64 trained64(nl::RuleKind rule, std::size_t k, std::size_t steps,
                               nl::FrequencySchedule schedule = nl::FrequencySchedule::fixed) {
  const nl::Trainer t = trained(rule, k, 0, schedule);  // the configuration and optimizer
  nl::Trainer64 t64(t.config(), t.params().cast<double>(), t.state().opt);
  const nl::MagConfig& cfg = t.config();
  std::vector<std::size_t> ids(cfg.seq_len), tg(cfg.seq_len);
  for (std::size_t n = 0; n < steps; ++n) {
    for (std::size_t i = 0; i < cfg.seq_len; ++i) ids[i] = (3 * n + 5 * i + 1) % cfg.vocab, tg[i] = (3 * n + 5 * i + 6) % cfg.vocab;
    auto r = t64.build_step(nltest::registry(), ids, tg, nl::GradientPath::hand_written);
    REQUIRE(r.ok());
  }
  return t64;
}

}  // namespace storetest
