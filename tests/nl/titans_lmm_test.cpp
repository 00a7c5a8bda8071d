#include "nl/titans_lmm.hpp"

#include "rule_check.hpp"

TEST_CASE("titans_lmm: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::TitansLMM>(nltest::small_config(), 6, 12);
}
