#include "tape/ops/matmul.hpp"

#include <doctest/doctest.h>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
}

TEST_CASE("matmul: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case(
      "Matmul", {Shape{3, 4}, Shape{4, 5}}, [](auto in) { return ops::matmul(in[0], in[1]); },
      [](const V& x) {
        std::vector<double> out(15);
        ops::matmul_forward<double>(x[0], x[1], out, 3, 4, 5, false);
        return out;
      }));
}

TEST_CASE("matmul_transpose_b: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case(
      "MatmulTransposeB", {Shape{3, 4}, Shape{5, 4}}, [](auto in) { return ops::matmul_transpose_b(in[0], in[1]); },
      [](const V& x) {
        std::vector<double> out(15);
        ops::matmul_forward<double>(x[0], x[1], out, 3, 4, 5, true);
        return out;
      }));
}

TEST_CASE("transpose: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case(
      "Transpose", {Shape{3, 4}}, [](auto in) { return ops::transpose(in[0]); },
      [](const V& x) {
        std::vector<double> out(12);
        ops::transpose_forward<double>(x[0], out, 3, 4);
        return out;
      }));
}

TEST_CASE("outer_product: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case(
      "OuterProduct", {Shape{3}, Shape{4}}, [](auto in) { return ops::outer_product(in[0], in[1]); },
      [](const V& x) {
        std::vector<double> out(12);
        ops::outer_product_forward<double>(x[0], x[1], out);
        return out;
      }));
}

TEST_CASE("matmul: forward values on a hand-computed case") {
  const Tensor a = Tensor::from(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = Tensor::from(std::vector<float>{7, 8, 9, 10, 11, 12}, {3, 2});
  CHECK(ops::matmul(a, b).to_vector() == std::vector<float>{58, 64, 139, 154});
  CHECK(ops::matmul_transpose_b(a, a).to_vector() == std::vector<float>{14, 32, 32, 77});
  CHECK(ops::transpose(a).to_vector() == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(ops::transpose(a).shape() == Shape{3, 2});
  const Tensor u = Tensor::from(std::vector<float>{1, 2}, {2});
  const Tensor v = Tensor::from(std::vector<float>{3, 4, 5}, {3});
  CHECK(ops::outer_product(u, v).to_vector() == std::vector<float>{3, 4, 5, 6, 8, 10});
}

TEST_CASE("matmul: shape errors name the op and both shapes") {
  const Tensor a = Tensor::from(std::vector<float>(6, 1.0f), {2, 3});
  const Tensor b = Tensor::from(std::vector<float>(8, 1.0f), {4, 2});
  CHECK_THROWS_WITH_AS(ops::matmul(a, b), "Matmul: inner dimensions differ; shapes [2,3] [4,2]", TapeError);
  CHECK_THROWS_WITH_AS(ops::matmul_transpose_b(a, b), "MatmulTransposeB: inner dimensions differ; shapes [2,3] [4,2]",
                       TapeError);
  const Tensor r1 = Tensor::from(std::vector<float>(3, 1.0f), {3});
  CHECK_THROWS_WITH_AS(ops::matmul(r1, b), "Matmul: A must have rank 2; shapes [3]", TapeError);
  CHECK_THROWS_WITH_AS(ops::outer_product(a, r1), "OuterProduct: a must have rank 1; shapes [2,3]", TapeError);
  CHECK_THROWS_WITH_AS(ops::transpose(r1), "Transpose: input must have rank 2; shapes [3]", TapeError);
}
