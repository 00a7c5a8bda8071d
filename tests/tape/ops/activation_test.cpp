#include "tape/ops/activation.hpp"

#include <doctest/doctest.h>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
const Shape kShape{3, 4};

template <void (*Kernel)(std::span<const double>, std::span<double>)>
std::vector<double> ref(const V& x) {
  std::vector<double> o(x[0].size());
  Kernel(x[0], o);
  return o;
}
}  // namespace

TEST_CASE("sigmoid/softplus/silu: VJPs match fp64 finite differences, accumulate, untraced is bitwise equal") {
  check_all(make_case("Sigmoid", {kShape}, [](auto in) { return ops::sigmoid(in[0]); },
                      ref<ops::sigmoid_forward<double>>, -5.0f, 5.0f));
  check_all(make_case("Softplus", {kShape}, [](auto in) { return ops::softplus(in[0]); },
                      ref<ops::softplus_forward<double>>, -5.0f, 5.0f));
  check_all(make_case("SiLU", {kShape}, [](auto in) { return ops::silu(in[0]); }, ref<ops::silu_forward<double>>,
                      -5.0f, 5.0f));
}

TEST_CASE("activations: beyond the ±15 clamps the values are exact and the gradient is 0 (or 1)") {
  const std::vector<float> x{-20.0f, -15.0f, 15.0f, 20.0f};
  const auto grads = tape::with_tape([&](Tape& t) {
    const Tensor in = t.register_input(x, {4});
    const Tensor s = ops::sigmoid(in);
    const Tensor sp = ops::softplus(in);
    CHECK(s.to_vector() == std::vector<float>{0, 0, 1, 1});
    CHECK(sp.to_vector() == std::vector<float>{0, 0, 15, 20});
    CHECK(ops::silu(in).to_vector() == std::vector<float>{-0.0f, -0.0f, 15, 20});
    t.backward(ops::add(s, sp).id(), std::vector<float>(4, 1.0f));
    return t.get_grad(in.id());
  });
  // d sigmoid = 0 in the clamp; d softplus = clamped σ = 0 or 1.
  CHECK(grads == std::vector<float>{0, 0, 1, 1});
}

TEST_CASE("activations: forward values inside the clamps") {
  const Tensor x = Tensor::from(std::vector<float>{0.0f, 1.0f}, {2});
  CHECK(ops::sigmoid(x)[0] == 0.5f);
  CHECK(ops::sigmoid(x)[1] == doctest::Approx(0.7310586));
  CHECK(ops::softplus(x)[0] == doctest::Approx(0.6931472));
  CHECK(ops::silu(x)[1] == doctest::Approx(0.7310586));
}
