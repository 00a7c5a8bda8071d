#include "nl/yaad.hpp"

#include "rule_check.hpp"

TEST_CASE("yaad: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::Yaad>(nltest::small_config(), 6, 12);
}
