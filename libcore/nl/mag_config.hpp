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

// How levels 1..K-1 are switched on. fixed: the conductor's pulse (n mod C_l == 0, §5). learned:
// a frequency gate decides per chunk (seed "Dynamic Frequency Gate"; see frequency_gate.hpp);
// level 0 stays active every step either way.
enum class FrequencySchedule : unsigned char { fixed, learned };

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
  FrequencySchedule schedule = FrequencySchedule::fixed;

  [[nodiscard]] std::size_t levels() const { return periods.size(); }
  [[nodiscard]] SwaShape swa_shape() const { return {seq_len, d, heads, window}; }
  [[nodiscard]] bool learned_schedule() const { return schedule == FrequencySchedule::learned; }
  // Levels the frequency gate decides (1..K-1): K - 1 when learned, else 0.
  [[nodiscard]] std::size_t gated_levels() const { return learned_schedule() && !periods.empty() ? periods.size() - 1 : 0; }
};

// The largest model nltrain builds (a CPU-scale trainer). Held by validate() below, so every
// configuration (flags, --config, a checkpoint's, a JSON state's) is refused before anything is
// allocated for it.
inline constexpr std::size_t kMaxModelWidth = 1024;  // d
inline constexpr std::size_t kMaxSeqLen = 4096;      // seq_len
inline constexpr std::size_t kMaxCmsLevels = 6;      // periods 1, 8, ..., 8^5
// The embedding E and the output projection U_emb hold vocab x d floats each (and AdamW two
// moments of each): at 2^20 ids and d = 32 that is already 1 GiB with the moments.
inline constexpr std::size_t kMinVocab = 2;          // one id predicts nothing
inline constexpr std::size_t kMaxVocab = std::size_t{1} << 20;
// vocab x d: 128 MiB of floats per matrix (vocab 2^20 at d = 32, 32768 at d = 1024), so that a
// checkpoint with both moments, and an export with --optimizer, stay readable (kMaxCheckpointBytes).
inline constexpr std::size_t kMaxEmbeddingFloats = std::size_t{1} << 25;

// Rejects a vocab outside kMinVocab..kMaxVocab, vocab x d over kMaxEmbeddingFloats, k = 0, zero or inconsistent sizes (heads not dividing d, window outside [1, seq_len],
// rule_cfg.d != d, C_0 != 1, a zero period, a learned schedule with k = 1), sizes over the limits
// above, and an invalid rule configuration; names the field.
[[nodiscard]] common::Status validate(const MagConfig& cfg);

}  // namespace nl
