#include "nl/lattice_osr.hpp"

#include "rule_check.hpp"

TEST_CASE("lattice_osr: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::LatticeOsr>(nltest::small_config(), 6, 12);
}
