// APX 13.1.1: cost- and reliability-aware multi-GPU placement.
#include <doctest/doctest.h>

#include "hybrid/placement/tensor_placement.hpp"
#include "placement_test_support.hpp"

using namespace hybrid;
using namespace placement_test;

namespace {
GlobalHardwareSnapshot mock_hw_snapshot_multi_gpu(std::vector<GpuCaps> gpus,
                                                  std::map<std::string, ReliabilityStats> reliability, float vram_p,
                                                  float ram_p) {
  auto hw = base_snapshot(vram_p, ram_p);
  hw.gpus = std::move(gpus);
  hw.reliability_by_device = std::move(reliability);
  return hw;
}
}  // namespace

TEST_CASE("tensor_placement v1.1: best gpu by reliability") {
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 90.0F), make_gpu("gpu1", 10.0F)},
                                       {{"gpu0", make_stats(5, 5, false)}, {"gpu1", make_stats(9, 1, false)}}, 0.3F,
                                       0.2F);
  auto g = best_gpu(hw);
  REQUIRE(g.has_value());
  CHECK(g->first->id == "gpu1");
  CHECK(g->second == doctest::Approx(0.9F));
}

TEST_CASE("tensor_placement v1.1: tie on reliability broken by compute score, then by id") {
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 10.0F), make_gpu("gpu1", 80.0F)}, {}, 0.3F, 0.2F);
  CHECK(best_gpu(hw)->first->id == "gpu1");
  auto tied = mock_hw_snapshot_multi_gpu({make_gpu("gpu7", 50.0F), make_gpu("gpu3", 50.0F)}, {}, 0.3F, 0.2F);
  CHECK(best_gpu(tied)->first->id == "gpu3");
}

TEST_CASE("tensor_placement v1.1: reliability_score and clamp01") {
  CHECK(reliability_score(nullptr) == 1.0F);
  auto none = make_stats(0, 0, false);
  CHECK(reliability_score(&none) == 1.0F);
  auto s = make_stats(3, 1, false);
  CHECK(reliability_score(&s) == doctest::Approx(0.75));
  auto penalised = make_stats(3, 1, true);
  CHECK(reliability_score(&penalised) == doctest::Approx(0.75 * 0.85));
  CHECK(clamp01(-1.0F) == 0.0F);
  CHECK(clamp01(2.0F) == 1.0F);
  CHECK(clamp01(0.25F) == 0.25F);
  CHECK(clamp01(std::numeric_limits<float>::quiet_NaN()) == 0.0F);
}
