#pragma once
// The one MAG chunk the per-rule benchmarks time (s = 64 tokens over a 64-symbol vocabulary,
// window 16, k = 1, every level firing): gpu_pairs_bench and nl_rules_bench measure the same
// step, so their numbers compare.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "nl/cms_forward.hpp"

namespace magbench {

inline constexpr std::size_t kSeq = 64, kVocab = 64, kWindow = 16;

struct Setup {
  nl::MagConfig cfg;
  nl::MagParams<float> params;
  nl::ContextMemory<float> context;
  std::vector<std::size_t> ids, targets;
  nl::Pulse pulse{{true}};
};

// `rule` at width d: heads d/16 (at least 2), d_h = d_c = d/2, a fixed token stream.
inline Setup make(nl::RuleKind rule, std::size_t d) {
  Setup s;
  s.cfg.vocab = kVocab, s.cfg.d = d, s.cfg.heads = std::max<std::size_t>(2, d / 16), s.cfg.seq_len = kSeq;
  s.cfg.window = kWindow, s.cfg.rule = rule, s.cfg.rule_cfg.d = d, s.cfg.rule_cfg.d_h = d / 2;
  s.cfg.rule_cfg.d_c = d / 2;
  s.params = nl::MagParams<float>::init(s.cfg);
  s.context = nl::ContextMemory<float>::initial(s.cfg);
  for (std::size_t t = 0; t < kSeq; ++t) s.ids.push_back((7 * t) % kVocab), s.targets.push_back((7 * t + 1) % kVocab);
  return s;
}

}  // namespace magbench
