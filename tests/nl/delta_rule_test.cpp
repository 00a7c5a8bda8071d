#include "nl/delta_rule.hpp"

#include "rule_check.hpp"

TEST_CASE("delta_rule: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::DeltaRule>(nltest::small_config(), 6, 11);
}

// The rule's per-row loops run in blocks of eight lanes plus a remainder (nl/delta_rule.cpp):
// d = 5 above is remainder only, these widths mix both (and 16 is blocks only).
TEST_CASE("delta_rule: widths of whole and partial eight-lane blocks pass the same checks") {
  for (const std::size_t d : {12u, 16u, 19u}) {
    nl::RuleConfig cfg = nltest::small_config();
    cfg.d = d;
    CAPTURE(d);
    nltest::check_rule<nl::DeltaRule>(cfg, 5, 13 + static_cast<unsigned>(d));
  }
}
