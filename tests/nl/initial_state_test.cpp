#include "nl/initial_state.hpp"

#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "nl/rule_config.hpp"

TEST_CASE("initial_state: Lattice's fp32 slots are the fp64 ones rounded once (O-4 as a formula)") {
  for (std::size_t d : {3u, 8u, 32u, 100u}) {
    nl::RuleConfig cfg;
    cfg.d = d, cfg.d_h = 4, cfg.m = 6, cfg.d_c = d;
    const std::vector<float> f = nl::initial_state<float>(nl::RuleKind::lattice, cfg);
    const std::vector<double> g = nl::initial_state<double>(nl::RuleKind::lattice, cfg);
    REQUIRE(f.size() == g.size());
    std::size_t off = 0;
    for (std::size_t i = 0; i < f.size(); ++i) off += f[i] != static_cast<float>(g[i]) ? 1 : 0;
    INFO("d = " << d);
    CHECK(off == 0);
    // And the rows are unit vectors (in double, to within the rounding of d entries).
    for (std::size_t r = 0; r < cfg.m; ++r) {
      double sq = 0;
      for (std::size_t j = 0; j < d; ++j) sq += g[r * d + j] * g[r * d + j];
      CHECK(std::fabs(std::sqrt(sq) - 1.0) < 1e-14);
    }
  }
}
