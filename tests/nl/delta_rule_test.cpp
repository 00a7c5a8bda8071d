#include "nl/delta_rule.hpp"

#include "rule_check.hpp"

TEST_CASE("delta_rule: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::DeltaRule>(nltest::small_config(), 6, 11);
}
