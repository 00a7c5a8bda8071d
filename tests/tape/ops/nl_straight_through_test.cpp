#include "tape/ops/nl_straight_through.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "tape/tape.hpp"

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

TEST_CASE("nl_straight_through: traced op records one CustomOp; tape gradient is d_out") {
  const std::vector<float> x = {-0.5f, 0.2f, 0.9f}, w = {3.0f, -1.5f, 0.25f};
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor in = t.register_input(x, tape::Shape{3});
    const tape::Tensor out = tape::ops::straight_through_bool(in, 0.1f);
    CHECK(t.ops().size() == 1);
    CHECK(out.to_vector() == std::vector<float>{0.0f, 1.0f, 1.0f});
    t.backward(out.id(), w);
    CHECK(t.get_grad(in.id()) == w);
  });
}
