#include "nl/memora.hpp"

#include "rule_check.hpp"

TEST_CASE("memora: hand-written backward matches fp64 finite differences; tape block matches it bitwise") {
  nltest::check_rule<nl::Memora>(nltest::small_config(), 6, 12);
}
