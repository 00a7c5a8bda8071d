#include "nl/mag_config.hpp"

#include <string>

namespace nl {

common::Status validate(const MagConfig& cfg) {
  auto bad = [](const std::string& field, const std::string& what) {
    return common::Error::invalid_argument("mag config: " + field + ": " + what);
  };
  if (cfg.vocab < kMinVocab || cfg.vocab > kMaxVocab) {
    return bad("vocab", "must be in " + std::to_string(kMinVocab) + ".." + std::to_string(kMaxVocab) + ", got " +
                            std::to_string(cfg.vocab) + " (the embedding and the output projection hold vocab x d floats each)");
  }
  if (cfg.d == 0 || cfg.d > kMaxModelWidth) {
    return bad("d", "must be in 1.." + std::to_string(kMaxModelWidth) + ", got " + std::to_string(cfg.d));
  }
  if (cfg.vocab * cfg.d > kMaxEmbeddingFloats) {
    return bad("vocab", "vocab x d = " + std::to_string(cfg.vocab) + " x " + std::to_string(cfg.d) + " = " +
                            std::to_string(cfg.vocab * cfg.d) + " floats in the embedding (and as many in the output projection); at most " +
                            std::to_string(kMaxEmbeddingFloats));
  }
  if (cfg.seq_len > kMaxSeqLen) {
    return bad("seq_len", "must be at most " + std::to_string(kMaxSeqLen) + ", got " + std::to_string(cfg.seq_len));
  }
  if (cfg.periods.empty()) return bad("k", "needs at least one CMS level, got k=0");
  if (cfg.periods.size() > kMaxCmsLevels) {
    return bad("k", "at most " + std::to_string(kMaxCmsLevels) + " CMS levels, got k=" + std::to_string(cfg.periods.size()));
  }
  if (cfg.periods[0] != 1) return bad("periods/0", "level 0 must have period 1, got " + std::to_string(cfg.periods[0]));
  for (std::size_t l = 0; l < cfg.periods.size(); ++l) {
    if (cfg.periods[l] == 0) return bad("periods/" + std::to_string(l), "must be > 0");
  }
  if (cfg.learned_schedule() && cfg.periods.size() < 2) {
    return bad("schedule", "learned needs k >= 2 (level 0 is always active; the gate decides levels 1..k-1)");
  }
  if (cfg.rule_cfg.d != cfg.d) {
    return bad("rule_cfg.d", "must equal d=" + std::to_string(cfg.d) + ", got " + std::to_string(cfg.rule_cfg.d));
  }
  if (const common::Status s = validate(cfg.swa_shape()); !s.ok()) {
    return common::Error::invalid_argument("mag config: " + s.error().message());
  }
  if (const common::Status s = validate(cfg.rule_cfg); !s.ok()) {
    return common::Error::invalid_argument("mag config: " + s.error().message());
  }
  return {};
}

}  // namespace nl
