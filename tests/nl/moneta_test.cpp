#include "nl/moneta.hpp"

#include "rule_check.hpp"

TEST_CASE("moneta: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::Moneta>(nltest::small_config(), 6, 12);
}

TEST_CASE("moneta: l_1 (tanh) and general l_p biases pass the same checks") {
  for (double p : {1.0, 1.5, 3.0}) {
    nl::RuleConfig cfg = nltest::small_config();
    cfg.p = p;
    cfg.a_s = 2.0;  // a sharper tanh makes eps = 1e-6 differences of a nearly-flat region meaningless
    nltest::check_rule<nl::Moneta>(cfg, 5, 31);
  }
}
