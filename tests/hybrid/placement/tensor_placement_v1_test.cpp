// APX 13.1.0: tensor profiles.
#include <doctest/doctest.h>

#include "hybrid/placement/tensor_placement.hpp"
#include "placement_test_support.hpp"

using namespace hybrid;
using namespace placement_test;

TEST_CASE("tensor_placement: total_size_bytes multiplies and saturates") {
  CHECK(make_tensor(10, 4, std::nullopt).total_size_bytes() == 40);
  CHECK(make_tensor(UINT64_MAX / 2, 4, std::nullopt).total_size_bytes() == UINT64_MAX);
}
