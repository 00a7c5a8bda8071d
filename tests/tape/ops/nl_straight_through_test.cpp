#include "tape/ops/nl_straight_through.hpp"

#include <doctest/doctest.h>

#include <vector>

TEST_CASE("nl_straight_through: forward is a strict hard threshold") {
  const std::vector<float> x = {-1.0f, 0.5f, 0.50001f, 2.0f};
  std::vector<float> out(4);
  tape::ops::straight_through_bool_forward<float>(x, 0.5f, out);
  CHECK(out == std::vector<float>{0.0f, 0.0f, 1.0f, 1.0f});
}

TEST_CASE("nl_straight_through: the VJP passes d_out through unchanged and accumulates") {
  const std::vector<float> g = {0.25f, -3.0f, 0.0f, 8.0f};
  std::vector<float> dx = {1.0f, 1.0f, 1.0f, 1.0f};
  tape::ops::straight_through_bool_backward<float>(g, dx);
  CHECK(dx == std::vector<float>{1.25f, -2.0f, 1.0f, 9.0f});
}
