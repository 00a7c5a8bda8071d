// The extension points: a CustomOp's backward is called by Tape::backward with the tape, and an
// OpaqueOp's registered function gets the seed's (d_outputs, saved, d_inputs) views.
#include <doctest/doctest.h>

#include <array>

#include "tape/ops/elementwise.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/recorder.hpp"
#include "tape/tape.hpp"

using namespace tape;

namespace {

// cube(x) = x^3 recorded as a CustomOp: d_x += 3 x^2 d_out.
void cube_backward(const CustomOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.outputs[0]);
  std::span<float> dx = tape.grad_accumulator(op.inputs[0]);
  if (g.empty() || dx.empty()) return;
  const std::span<const float> x = tape.data(op.inputs[0]);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] += op.scalars[0] * x[i] * x[i] * g[i];
}

Tensor cube(const Tensor& x) {
  Recorder rec("Cube");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  for (std::size_t i = 0; i < x.numel(); ++i) out.data[i] = x[i] * x[i] * x[i];
  if (rec.recording()) {
    CustomOp op;
    op.name = "Cube";
    op.backward = cube_backward;
    op.inputs = {ix};
    op.outputs = {out.tensor.id()};
    op.scalars[0] = 3.0f;
    rec.tape().record_custom(op);
  }
  return std::move(out.tensor);
}

// Opaque block y = 2 a + b (outputs one buffer); saved[0] holds the factor 2.
void twice_plus_backward(std::span<const std::span<const float>> d_outputs,
                         std::span<const std::span<const float>> saved, std::span<const std::span<float>> d_inputs) {
  for (std::size_t i = 0; i < d_outputs[0].size(); ++i) {
    d_inputs[0][i] = saved[0][0] * d_outputs[0][i];
    d_inputs[1][i] = d_outputs[0][i];
  }
}

}  // namespace

TEST_CASE("custom op: Tape::backward calls its function, and its gradient accumulates with core ops") {
  const auto g = with_tape([](Tape& t) {
    const Tensor x = t.register_param(std::vector<float>{1, 2}, {2});
    const Tensor loss = ops::frobenius_dot(cube(x), x);  // sum x^4 -> 4 x^3
    t.backward(loss.id());
    return t.get_grad(x.id());
  });
  CHECK(g == std::vector<float>{4, 32});
}

TEST_CASE("custom op: recording without a backward function or with a foreign id is an error") {
  with_tape([](Tape& t) {
    CustomOp op;
    op.name = "Broken";
    CHECK_THROWS_WITH_AS(t.record_custom(op), "Broken: custom op recorded without a backward function", TapeError);
    op.backward = cube_backward;
    op.inputs = {BufId(t.serial() + 1000, 0)};
    CHECK_THROWS_AS(t.record_custom(op), TapeError);
    CHECK_THROWS_AS((SmallBufIds{BufId{}, BufId{}, BufId{}, BufId{}, BufId{}}), TapeError);
  });
}

TEST_CASE("opaque op: the registered function sees upstream grads and saved values; results accumulate") {
  const auto [ga, gb] = with_tape([](Tape& t) {
    const Tensor a = t.register_param(std::vector<float>{1, 2}, {2});
    const Tensor b = t.register_param(std::vector<float>{3, 4}, {2});
    NewBuffer y = t.new_buffer({2}, true);
    for (std::size_t i = 0; i < 2; ++i) y.data[i] = 2 * a[i] + b[i];
    NewBuffer factor = t.new_buffer({}, false);
    factor.data[0] = 2.0f;
    t.record_opaque(OpaqueOp{opaque::OpaqueKey::delta_rule, {a.id(), b.id()}, {y.tensor.id()}, {factor.tensor.id()},
                             twice_plus_backward, nullptr, nullptr});
    const Tensor loss = ops::add(ops::frobenius_dot(y.tensor, y.tensor), ops::frobenius_dot(a, a));
    t.backward(loss.id());
    return std::pair{t.get_grad(a.id()), t.get_grad(b.id())};
  });
  // y = (5, 8): dL/dy = 2y = (10, 16); dL/da = 2 * 2y + 2a; dL/db = 2y
  CHECK(ga == std::vector<float>{22, 36});
  CHECK(gb == std::vector<float>{10, 16});
}

TEST_CASE("opaque op: a missing backward function is reported with the key's name") {
  with_tape([](Tape& t) {
    NewBuffer y = t.new_buffer({1}, false);
    y.data[0] = 0.0f;
    CHECK_THROWS_WITH_AS(
        t.record_opaque(OpaqueOp{opaque::OpaqueKey::swa, {}, {y.tensor.id()}, {}, nullptr, nullptr, nullptr}),
        "Opaque(SWA): no backward function registered for this key", TapeError);
  });
}
