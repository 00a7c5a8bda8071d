#include "tape/ops/reshape.hpp"

#include <doctest/doctest.h>

#include <array>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
}

TEST_CASE("concat: VJP matches fp64 finite differences on both axes, accumulates, untraced is bitwise equal") {
  check_all(make_case("Concat axis 0", {Shape{2, 3}, Shape{1, 3}},
                      [](auto in) { return ops::concat(in, 0); },
                      [](const V& x) {
                        std::vector<double> o(x[0]);
                        o.insert(o.end(), x[1].begin(), x[1].end());
                        return o;
                      }));
  check_all(make_case("Concat axis 1", {Shape{2, 3}, Shape{2, 2}},
                      [](auto in) { return ops::concat(in, 1); },
                      [](const V& x) {
                        std::vector<double> o;
                        for (std::size_t r = 0; r < 2; ++r) {
                          o.insert(o.end(), x[0].begin() + 3 * r, x[0].begin() + 3 * r + 3);
                          o.insert(o.end(), x[1].begin() + 2 * r, x[1].begin() + 2 * r + 2);
                        }
                        return o;
                      }));
}

TEST_CASE("slice: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case("Slice", {Shape{3, 4}}, [](auto in) { return ops::slice(in[0], 2, std::size_t{5}); },
                      [](const V& x) { return std::vector<double>(x[0].begin() + 2, x[0].begin() + 7); }));
}

TEST_CASE("concat/slice: values, shapes and errors") {
  const Tensor a = Tensor::from(std::vector<float>{1, 2, 3, 4}, {2, 2});
  const Tensor b = Tensor::from(std::vector<float>{5, 6}, {2, 1});
  const std::array both{a, b};
  const Tensor c = ops::concat(both, 1);
  CHECK(c.shape() == Shape{2, 3});
  CHECK(c.to_vector() == std::vector<float>{1, 2, 5, 3, 4, 6});
  CHECK_THROWS_WITH_AS(ops::concat(both, 0), "Concat: inputs disagree off the concat axis; shapes [2,2] [2,1]",
                       TapeError);
  const Tensor s = ops::slice(a, 1, Shape{1, 2});
  CHECK(s.shape() == Shape{1, 2});
  CHECK(s.to_vector() == std::vector<float>{2, 3});
  CHECK_THROWS_WITH_AS(ops::slice(a, 3, std::size_t{2}), "Slice: range [3, 3+2) exceeds 4 elements; shapes [2,2] [2]",
                       TapeError);
}
