#include "tape/ops/reduction.hpp"

#include <doctest/doctest.h>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
}

TEST_CASE("frobenius_dot/l2_norm: VJPs match fp64 finite differences, accumulate, untraced is bitwise equal") {
  check_all(make_case("FrobeniusDot", {Shape{3, 4}, Shape{3, 4}}, [](auto in) { return ops::frobenius_dot(in[0], in[1]); },
                      [](const V& x) { return std::vector<double>{ops::frobenius_dot_forward<double>(x[0], x[1])}; }));
  check_all(make_case("L2Norm", {Shape{2, 3}}, [](auto in) { return ops::l2_norm(in[0]); },
                      [](const V& x) { return std::vector<double>{ops::l2_norm_forward<double>(x[0])}; }));
}

TEST_CASE("l2_norm: at x = 0 the VJP uses the 1e-8 floor and stays finite") {
  const auto g = tape::with_tape([](Tape& t) {
    const Tensor x = t.register_input(std::vector<float>{0.0f, 0.0f}, {2});
    const Tensor n = ops::l2_norm(x);
    CHECK(n.item() == 0.0f);
    t.backward(n.id());
    return t.get_grad(x.id());
  });
  CHECK(g == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("reductions: forward values and shape errors") {
  const Tensor a = Tensor::from(std::vector<float>{3, 4}, {2});
  const Tensor b = Tensor::from(std::vector<float>{1, 2}, {2});
  CHECK(ops::frobenius_dot(a, b).item() == 11.0f);
  CHECK(ops::frobenius_dot(a, b).shape() == Shape{});
  CHECK(ops::l2_norm(a).item() == 5.0f);
  const Tensor c = Tensor::from(std::vector<float>{1, 2}, {1, 2});
  CHECK_THROWS_WITH_AS(ops::frobenius_dot(a, c), "FrobeniusDot: operands differ in shape; shapes [2] [1,2]", TapeError);
}
