#include "nl/moneta.hpp"

#include "rule_check.hpp"

TEST_CASE("moneta: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::Moneta>(nltest::small_config(), 6, 12);
}
