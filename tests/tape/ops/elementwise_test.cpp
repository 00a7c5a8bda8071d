#include "tape/ops/elementwise.hpp"

#include <doctest/doctest.h>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
const Shape kElementwiseShape{2, 3};
}  // namespace

TEST_CASE("add/sub/mul: VJPs match fp64 finite differences, accumulate, untraced is bitwise equal") {
  check_all(make_case("Add", {kElementwiseShape, kElementwiseShape}, [](auto in) { return ops::add(in[0], in[1]); }, [](const V& x) {
    std::vector<double> o(6);
    ops::add_forward<double>(x[0], x[1], o);
    return o;
  }));
  check_all(make_case("Sub", {kElementwiseShape, kElementwiseShape}, [](auto in) { return ops::sub(in[0], in[1]); }, [](const V& x) {
    std::vector<double> o(6);
    ops::sub_forward<double>(x[0], x[1], o);
    return o;
  }));
  check_all(make_case("Mul", {kElementwiseShape, kElementwiseShape}, [](auto in) { return ops::mul(in[0], in[1]); }, [](const V& x) {
    std::vector<double> o(6);
    ops::mul_forward<double>(x[0], x[1], o);
    return o;
  }));
}

TEST_CASE("scale/negate: VJPs match fp64 finite differences, accumulate, untraced is bitwise equal") {
  check_all(make_case("Scale", {kElementwiseShape}, [](auto in) { return ops::scale(in[0], -1.75f); }, [](const V& x) {
    std::vector<double> o(6);
    ops::scale_forward<double>(x[0], static_cast<double>(-1.75f), o);
    return o;
  }));
  check_all(make_case("Negate", {kElementwiseShape}, [](auto in) { return ops::negate(in[0]); }, [](const V& x) {
    std::vector<double> o(6);
    ops::scale_forward<double>(x[0], -1.0, o);
    return o;
  }));
}

TEST_CASE("elementwise: forward values") {
  const Tensor a = Tensor::from(std::vector<float>{1, 2, 3}, {3});
  const Tensor b = Tensor::from(std::vector<float>{4, 5, 7}, {3});
  CHECK(ops::add(a, b).to_vector() == std::vector<float>{5, 7, 10});
  CHECK(ops::sub(a, b).to_vector() == std::vector<float>{-3, -3, -4});
  CHECK(ops::mul(a, b).to_vector() == std::vector<float>{4, 10, 21});
  CHECK(ops::scale(a, 0.5f).to_vector() == std::vector<float>{0.5f, 1, 1.5f});
  CHECK(ops::negate(a).to_vector() == std::vector<float>{-1, -2, -3});
}

TEST_CASE("elementwise: shape mismatch names the op and both shapes") {
  const Tensor a = Tensor::from(std::vector<float>(6, 1.0f), {2, 3});
  const Tensor b = Tensor::from(std::vector<float>(6, 1.0f), {3, 2});
  CHECK_THROWS_WITH_AS(ops::add(a, b), "Add: operands differ in shape; shapes [2,3] [3,2]", TapeError);
  CHECK_THROWS_WITH_AS(ops::sub(a, b), "Sub: operands differ in shape; shapes [2,3] [3,2]", TapeError);
  CHECK_THROWS_WITH_AS(ops::mul(a, b), "Mul: operands differ in shape; shapes [2,3] [3,2]", TapeError);
}

TEST_CASE("elementwise: an overflow to Inf is reported by the op that produced it") {
  const Tensor big = Tensor::from(std::vector<float>{1e30f, 1.0f}, {2});
  CHECK_THROWS_WITH_AS(ops::mul(big, big), "Mul: result contains NaN or Inf; shapes [2] [2]", TapeError);
  CHECK_THROWS_WITH_AS(ops::scale(big, 1e10f), "Scale: result contains NaN or Inf; shapes [2]", TapeError);
  tape::with_tape([&](Tape& t) {
    const Tensor p = t.register_param(std::vector<float>{3e38f, 1.0f}, {2});
    CHECK_THROWS_WITH_AS(ops::add(p, p), "Add: result contains NaN or Inf; shapes [2] [2]", TapeError);
  });
}
