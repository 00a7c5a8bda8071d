#include "nl/atlas_omega.hpp"

#include "rule_check.hpp"

TEST_CASE("atlas_omega: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::AtlasOmega>(nltest::small_config(), 6, 12);
}
