#include "tape/ops/softmax.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
const std::vector<std::size_t> kTargets{2, 0, 7, 5};  // 7 >= V = 6: ignored
}  // namespace

TEST_CASE("softmax: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case("Softmax", {Shape{3, 5}}, [](auto in) { return ops::softmax(in[0]); }, [](const V& x) {
    std::vector<double> o(15);
    ops::softmax_forward<double>(x[0], o, 3, 5);
    return o;
  }));
}

TEST_CASE("cross_entropy: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case("CrossEntropy", {Shape{4, 6}}, [](auto in) { return ops::cross_entropy(in[0], kTargets); },
                      [](const V& x) {
                        std::vector<double> probs(24);
                        return std::vector<double>{ops::cross_entropy_forward<double>(x[0], kTargets, 6, probs)};
                      }));
}

TEST_CASE("cross_entropy: mean over valid targets; ignored rows get no gradient; no valid target gives 0") {
  const std::vector<float> logits{0, 0, 0, 0, 1, 2, 3, 4};
  const std::vector<std::size_t> targets{1, 9};
  const auto g = tape::with_tape([&](Tape& t) {
    const Tensor x = t.register_input(logits, {2, 4});
    const Tensor loss = ops::cross_entropy(x, targets);
    CHECK(loss.item() == doctest::Approx(std::log(4.0)));  // uniform row, the other ignored
    t.backward(loss.id());
    return t.get_grad(x.id());
  });
  CHECK(g[0] == doctest::Approx(0.25));
  CHECK(g[1] == doctest::Approx(-0.75));
  for (std::size_t j = 4; j < 8; ++j) CHECK(g[j] == 0.0f);
  const std::vector<std::size_t> none{4, 4};
  CHECK(ops::cross_entropy(Tensor::from(logits, {2, 4}), none).item() == 0.0f);
}

TEST_CASE("softmax: rows sum to one and large logits do not overflow") {
  const Tensor x = Tensor::from(std::vector<float>{1000, 1000, -5, 0}, {2, 2});
  const Tensor y = ops::softmax(x);
  CHECK(y[0] == 0.5f);
  CHECK(y[1] == 0.5f);
  CHECK(y[2] + y[3] == doctest::Approx(1.0));
  CHECK(ops::cross_entropy(x, std::vector<std::size_t>{0, 1}).item() == doctest::Approx((std::log(2.0) + std::log1p(std::exp(-5.0))) / 2));
}

TEST_CASE("cross_entropy: bad shapes and target counts name the op") {
  const Tensor x = Tensor::from(std::vector<float>(6, 0.0f), {2, 3});
  CHECK_THROWS_WITH_AS(ops::cross_entropy(x, std::vector<std::size_t>{1}),
                       "CrossEntropy: 1 targets for 2 rows of logits; shapes [2,3]", TapeError);
  const Tensor r1 = Tensor::from(std::vector<float>(3, 0.0f), {3});
  CHECK_THROWS_WITH_AS(ops::cross_entropy(r1, std::vector<std::size_t>{1}),
                       "CrossEntropy: logits must have rank 2 [n, vocab]; shapes [3]", TapeError);
}
