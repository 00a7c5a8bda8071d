// APX 13.1.0: the v1 decision model.
#include <doctest/doctest.h>

#include "hybrid/placement/tensor_placement.hpp"
#include "placement_test_support.hpp"

using namespace hybrid;
using namespace placement_test;

TEST_CASE("tensor_placement v1: cpu when no gpu") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), mock_hw_snapshot(false, 0.1F, 0.1F));
  CHECK(d.target == PlacementTarget::cpu);
  CHECK(d.reason == "No GPU detected");
  CHECK_FALSE(d.device_id.has_value());
}

TEST_CASE("tensor_placement v1: vram when low pressure") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), mock_hw_snapshot(true, 0.3F, 0.1F));
  CHECK(d.target == PlacementTarget::vram);
  CHECK(d.device_id == std::optional<std::string>("gpu0"));
}

TEST_CASE("tensor_placement v1: ram when vram high") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt), mock_hw_snapshot(true, 0.95F, 0.2F));
  CHECK(d.target == PlacementTarget::ram);
  CHECK(d.reason == "VRAM pressure is high; placing tensor in RAM");
  CHECK_FALSE(d.device_id.has_value());
}

TEST_CASE("tensor_placement v1: unknown vram pressure counts as full, unknown ram pressure as free") {
  auto d = TensorPlacementEngine::decide(make_tensor(1024, 4, std::nullopt),
                                         mock_hw_snapshot(true, std::nullopt, std::nullopt));
  CHECK(d.target == PlacementTarget::ram);
}

TEST_CASE("tensor_placement: total_size_bytes multiplies and saturates") {
  CHECK(make_tensor(10, 4, std::nullopt).total_size_bytes() == 40);
  CHECK(make_tensor(UINT64_MAX / 2, 4, std::nullopt).total_size_bytes() == UINT64_MAX);
}
