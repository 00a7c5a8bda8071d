#include "nl/hebbian_rule.hpp"

#include "rule_check.hpp"

TEST_CASE("hebbian_rule: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::HebbianRule>(nltest::small_config(), 6, 12);
}
