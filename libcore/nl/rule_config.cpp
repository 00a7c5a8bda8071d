#include "nl/rule_config.hpp"

#include <cmath>
#include <string>

#include "common/js_json_text.hpp"

namespace nl {

std::string_view to_string(RuleKind kind) {
  return tape::opaque::to_string(active_key(kind));
}

namespace {

common::Status bad(const std::string& field, const std::string& what) {
  return common::Error::invalid_argument("rule config: " + field + ": " + what);
}

common::Status non_negative(const char* field, double v) {
  if (!std::isfinite(v) || v < 0) return bad(field, "must be finite and >= 0, got " + common::js_string(v));
  return {};
}

}  // namespace

common::Status validate(const RuleConfig& cfg) {
  if (cfg.d == 0) return bad("d", "must be > 0");
  if (cfg.d_h == 0 || cfg.d_h > kMaxRuleWidth) {
    return bad("d_h", "must be in 1.." + std::to_string(kMaxRuleWidth) + ", got " + std::to_string(cfg.d_h));
  }
  if (cfg.m == 0 || cfg.m > kMaxRuleWidth) {
    return bad("m", "must be in 1.." + std::to_string(kMaxRuleWidth) + ", got " + std::to_string(cfg.m));
  }
  if (cfg.d_c == 0 || cfg.d_c > cfg.d) {
    return bad("d_c", "must be in [1, d=" + std::to_string(cfg.d) + "], got " + std::to_string(cfg.d_c));
  }
  for (const auto& [name, v] : {std::pair{"lambda_k", cfg.lambda_k}, std::pair{"lambda_v", cfg.lambda_v},
                                std::pair{"lambda_2", cfg.lambda_2}, std::pair{"lambda_loc", cfg.lambda_loc},
                                std::pair{"huber_delta", cfg.huber_delta}, std::pair{"a_s", cfg.a_s}}) {
    if (common::Status s = non_negative(name, v); !s.ok()) return s;
  }
  if (!std::isfinite(cfg.p) || cfg.p < 1) return bad("p", "must be finite and >= 1, got " + std::to_string(cfg.p));
  return {};
}

std::size_t state_size(RuleKind kind, const RuleConfig& cfg) {
  switch (kind) {
    case RuleKind::moneta:
    case RuleKind::yaad:
    case RuleKind::memora: return 2 * cfg.d_h * cfg.d;
    case RuleKind::lattice: return cfg.m * cfg.d;
    case RuleKind::trellis: return 2 * cfg.d_c * cfg.d;
    case RuleKind::delta:
    case RuleKind::titans:
    case RuleKind::hebbian:
    case RuleKind::atlas: return cfg.d * cfg.d;
  }
  return 0;
}

}  // namespace nl
