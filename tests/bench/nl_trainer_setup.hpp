#pragma once
// The trainer the nl training benchmarks time (DeltaRule, K = 2, vocab 256, heads d/8, seq_len
// tokens per chunk) and the opaque-VJP registry it trains with, shared so their numbers compare.
#include <cstddef>
#include <cstdint>

#include "nl/register_opaque_vjps.hpp"
#include "nl/trainer.hpp"

namespace nlbench {

inline const tape::opaque::OpaqueRegistry& registry() {
  static const tape::opaque::OpaqueRegistry reg = [] {
    tape::opaque::OpaqueRegistry r;
    (void)nl::register_opaque_vjps(r);
    return r;
  }();
  return reg;
}

// At T = double: nltrain train --fp64's trainer (the fp32 initial parameters, widened).
template <typename T = float>
inline nl::BasicTrainer<T> delta_trainer(std::size_t d, std::size_t seq_len, std::uint64_t warmup, std::uint64_t total_steps,
                                         std::size_t batch = 1) {
  nl::MagConfig cfg;
  cfg.vocab = 256, cfg.d = d, cfg.heads = d / 8, cfg.seq_len = seq_len, cfg.window = seq_len, cfg.rule = nl::RuleKind::delta;
  cfg.rule_cfg.d = d, cfg.rule_cfg.d_h = 16, cfg.rule_cfg.m = 8, cfg.rule_cfg.d_c = 16;
  cfg.periods = {1, 8};
  nl::AdamWConfig opt;
  opt.lr = 3e-3, opt.warmup = warmup, opt.total_steps = total_steps;
  return nl::BasicTrainer<T>(cfg, nl::MagParams<float>::init(cfg).cast<T>(), opt, batch);
}

}  // namespace nlbench
