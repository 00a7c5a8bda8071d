#pragma once
// MagConfig: the MAG model's sizes, its memory rule and the CMS level periods
// (nltrain-math §1, §3, §5).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/result.hpp"
#include "nl/rule_config.hpp"
#include "nl/swa.hpp"

namespace nl {

struct MagConfig {
  std::size_t vocab = 16;
  std::size_t d = 8;
  std::size_t heads = 2;
  std::size_t seq_len = 4;  // tokens per chunk (= per step)
  std::size_t window = 4;   // SWA window, 1 <= window <= seq_len
  RuleKind rule = RuleKind::delta;
  RuleConfig rule_cfg;                     // rule_cfg.d must equal d
  std::vector<std::size_t> periods{1};     // C_l per level; K = periods.size() >= 1, C_0 = 1
  std::uint64_t seed = 42;

  [[nodiscard]] std::size_t levels() const { return periods.size(); }
  [[nodiscard]] SwaShape swa_shape() const { return {seq_len, d, heads, window}; }
};

// Rejects k = 0, zero or inconsistent sizes (heads not dividing d, window outside [1, seq_len],
// rule_cfg.d != d, C_0 != 1, a zero period) and an invalid rule configuration; names the field.
[[nodiscard]] common::Status validate(const MagConfig& cfg);

}  // namespace nl
