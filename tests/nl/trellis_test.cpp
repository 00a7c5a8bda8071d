#include "nl/trellis.hpp"

#include "rule_check.hpp"

TEST_CASE("trellis: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::Trellis>(nltest::small_config(), 6, 12);
}
