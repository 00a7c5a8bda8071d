// Every rule at the specification's test sizes (nltrain-math §11: d=8, d_h=4, m=4, d_c=8, s=4),
// with its constants, and at a longer chunk.
#include "nl/rule_dispatch.hpp"

#include "rule_check.hpp"

namespace {

nl::RuleConfig spec_config() {
  nl::RuleConfig cfg;
  cfg.d = 8, cfg.d_h = 4, cfg.m = 4, cfg.d_c = 8;
  cfg.lambda_k = cfg.lambda_v = 0.01;
  cfg.lambda_2 = 0.01, cfg.lambda_loc = 0.01, cfg.huber_delta = 1.0, cfg.p = 2.0;
  return cfg;
}

}  // namespace

TEST_CASE("all rules: the specification's test configuration, s=4 and s=16") {
  for (nl::RuleKind kind : nl::kAllRuleKinds) {
    for (std::size_t s : {std::size_t{4}, std::size_t{16}}) {
      INFO(nl::to_string(kind) << " s=" << s);
      nl::visit_rule(kind, [&]<template <typename> class R>() { nltest::check_rule<R>(spec_config(), s, 7); });
    }
  }
}
