// APX 13.1.2: SSD as last resort.
#include <doctest/doctest.h>

#include "hybrid/placement/tensor_placement.hpp"
#include "placement_test_support.hpp"

using namespace hybrid;
using namespace placement_test;

namespace {
GlobalHardwareSnapshot mock_hw_snapshot_single_gpu(float vram_p, float ram_p) {
  auto hw = base_snapshot(vram_p, ram_p);
  hw.gpus.push_back(make_gpu("gpu0", 50.0F));
  return hw;
}
}  // namespace

TEST_CASE("tensor_placement v1.2: ssd when vram and ram critical and tensor huge") {
  auto d = TensorPlacementEngine::decide(make_tensor(huge_tensor_elements_for_4b(), 4, 500.0F),
                                         mock_hw_snapshot_single_gpu(0.98F, 0.97F));
  CHECK(d.target == PlacementTarget::ssd);
  CHECK_FALSE(d.device_id.has_value());
  CHECK(d.reason == "VRAM and RAM are under critical pressure; placing huge tensor on SSD as last resort");
}

TEST_CASE("tensor_placement v1.2: cpu when critical but tensor small") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), mock_hw_snapshot_single_gpu(0.98F, 0.97F));
  CHECK(d.target == PlacementTarget::cpu);
  CHECK_FALSE(d.device_id.has_value());
  CHECK_FALSE(d.reason.empty());
}

TEST_CASE("tensor_placement v1.2: ram when vram critical but ram safe") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), mock_hw_snapshot_single_gpu(0.97F, 0.2F));
  CHECK(d.target == PlacementTarget::ram);
  CHECK_FALSE(d.device_id.has_value());
  CHECK_FALSE(d.reason.empty());
}

TEST_CASE("tensor_placement v1.2: vram still wins when compute-heavy and vram safe") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, 250.0F), mock_hw_snapshot_single_gpu(0.3F, 0.9F));
  CHECK(d.target == PlacementTarget::vram);
  CHECK(d.device_id == std::optional<std::string>("gpu0"));
  CHECK_FALSE(d.reason.empty());
}

TEST_CASE("tensor_placement v1.2: huge light tensor goes to ssd when ram is very high, heavy one does not") {
  auto light = TensorPlacementEngine::decide(make_tensor(huge_tensor_elements_for_4b(), 4, std::nullopt),
                                             mock_hw_snapshot_single_gpu(0.5F, 0.92F));
  CHECK(light.target == PlacementTarget::ssd);
  CHECK(light.reason ==
        "RAM pressure is very high and tensor is huge but not compute-heavy; placing tensor on SSD as last resort");
  auto heavy = TensorPlacementEngine::decide(make_tensor(huge_tensor_elements_for_4b(), 4, 500.0F),
                                             mock_hw_snapshot_single_gpu(0.5F, 0.92F));
  CHECK(heavy.target == PlacementTarget::cpu);
}
