#include "tape/ops/retention.hpp"

#include <doctest/doctest.h>

#include "tape/ops/elementwise.hpp"
#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
const Shape kShape{2, 3};
}  // namespace

TEST_CASE("l2_retention: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case("L2Retention", {kShape}, [](auto in) { return ops::l2_retention(in[0], 0.9f); },
                      [](const V& x) {
                        std::vector<double> o(6);
                        ops::scale_forward<double>(x[0], static_cast<double>(0.9f), o);
                        return o;
                      }));
}

TEST_CASE("l2_retention: forward values") {
  const Tensor a = Tensor::from(std::vector<float>{1, 2, 3}, {3});
  CHECK(ops::l2_retention(a, 2.0f).to_vector() == std::vector<float>{2, 4, 6});
}
