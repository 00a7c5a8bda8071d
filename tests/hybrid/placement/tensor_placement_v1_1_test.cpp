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
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), hw);
  CHECK(d.target == PlacementTarget::vram);
  CHECK(d.device_id == std::optional<std::string>("gpu1"));
  CHECK(d.reason == "Selected GPU gpu1 (reliability=0.90) and VRAM pressure is safe");
}

TEST_CASE("tensor_placement v1.1: tie on reliability broken by compute score, then by id") {
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 10.0F), make_gpu("gpu1", 80.0F)}, {}, 0.3F, 0.2F);
  CHECK(TensorPlacementEngine::decide(make_tensor(16, 4, std::nullopt), hw).device_id ==
        std::optional<std::string>("gpu1"));
  auto tied = mock_hw_snapshot_multi_gpu({make_gpu("gpu7", 50.0F), make_gpu("gpu3", 50.0F)}, {}, 0.3F, 0.2F);
  CHECK(TensorPlacementEngine::decide(make_tensor(16, 4, std::nullopt), tied).device_id ==
        std::optional<std::string>("gpu3"));
}

TEST_CASE("tensor_placement v1.1: huge tensor prefers ram when pressure allows") {
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 50.0F)}, {}, 0.3F, 0.2F);
  auto d = TensorPlacementEngine::decide(make_tensor(huge_tensor_elements_for_4b(), 4, 500.0F), hw);
  CHECK(d.target == PlacementTarget::ram);
  CHECK(d.reason == "Tensor is huge and RAM pressure is acceptable; placing tensor in RAM");
  CHECK_FALSE(d.device_id.has_value());
}

TEST_CASE("tensor_placement v1.1: compute-heavy prefers gpu when safe, even on a shaky gpu") {
  // Reliability 0.5 * 0.85 is below the light-tensor bar; compute-heavy work still goes to VRAM.
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 50.0F)}, {{"gpu0", make_stats(1, 1, true)}}, 0.3F, 0.2F);
  auto heavy = TensorPlacementEngine::decide(make_tensor(1024, 4, 150.0F), hw);
  CHECK(heavy.target == PlacementTarget::vram);
  CHECK(heavy.device_id == std::optional<std::string>("gpu0"));
  auto light = TensorPlacementEngine::decide(make_tensor(1024, 4, 1.0F), hw);
  CHECK(light.target == PlacementTarget::ram);
}

TEST_CASE("tensor_placement v1.1: high pressure forces cpu") {
  auto hw = mock_hw_snapshot_multi_gpu({make_gpu("gpu0", 50.0F)}, {}, 0.9F, 0.9F);
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), hw);
  CHECK(d.target == PlacementTarget::cpu);
  CHECK(d.reason == "System memory pressure is high; falling back to CPU");
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
