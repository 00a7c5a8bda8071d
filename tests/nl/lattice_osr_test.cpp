#include "nl/lattice_osr.hpp"

#include "rule_check.hpp"

TEST_CASE("lattice_osr: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::LatticeOsr>(nltest::small_config(), 6, 12);
}

TEST_CASE("lattice_osr: encode and similarity write inputs pass the same checks") {
  for (nl::LatticeVariant v : {nl::LatticeVariant::encode, nl::LatticeVariant::similarity}) {
    nl::RuleConfig cfg = nltest::small_config();
    cfg.lattice_variant = v;
    nltest::check_rule<nl::LatticeOsr>(cfg, 5, 21 + static_cast<unsigned>(v));
  }
}
