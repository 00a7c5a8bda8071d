#include "tape/opaque/record_opaque.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tape/opaque/untraced_scope.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/tape.hpp"

using tape::Shape;
using tape::Tensor;
using tape::opaque::OpaqueKey;
using tape::opaque::OpaqueRegistry;
using tape::opaque::OpaqueValue;

namespace {

constexpr std::size_t kS = 3;  // tokens
constexpr std::size_t kD = 4;  // model width

using Buffers = std::span<const std::span<const float>>;

// A frozen memory read: Y = Q M^T (y_t = M q_t), so d_Q = d_Y M. saved = {M}.
void frozen_read_backward(Buffers d_outputs, Buffers saved, std::span<const std::span<float>> d_inputs) {
  const std::span<const float> dy = d_outputs[0], m = saved[0];
  for (std::size_t t = 0; t < kS; ++t)
    for (std::size_t j = 0; j < kD; ++j) {
      float acc = 0;
      for (std::size_t i = 0; i < kD; ++i) acc += dy[t * kD + i] * m[i * kD + j];
      d_inputs[0][t * kD + j] = acc;
    }
}

// The same read with a VJP three times too large: if the tape's gradient follows it, the
// registered function is the only path through the block.
void tripled_backward(Buffers d_outputs, Buffers saved, std::span<const std::span<float>> d_inputs) {
  frozen_read_backward(d_outputs, saved, d_inputs);
  for (float& v : d_inputs[0]) v *= 3.0f;
}

std::vector<float> seq(std::size_t n, float start, float step) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i) + 0.05f * std::sin(float(i));
  return v;
}

const std::vector<float> kM = seq(kD * kD, -0.7f, 0.09f);
const std::vector<float> kW = seq(kD * kD, 0.4f, -0.05f);
const std::vector<float> kX = seq(kS * kD, -1.0f, 0.17f);
const std::vector<float> kC = seq(kS * kD, 0.3f, -0.04f);

struct Grads {
  std::vector<float> w, x;
  std::size_t ops_recorded_by_block = 0;
};

// loss = <C, frozen_read(X W^T)>, with the block's forward run through traced ops in an
// UntracedScope (they must not reach the tape).
Grads run(const OpaqueRegistry& registry) {
  return tape::with_tape([&](tape::Tape& t) {
    const Tensor w = t.register_param(kW, Shape{kD, kD});
    const Tensor x = t.register_input(kX, Shape{kS, kD});
    const Tensor q = tape::ops::matmul_transpose_b(x, w);
    const std::size_t before = t.ops().size();
    Tensor y_inner;
    {
      tape::opaque::UntracedScope untraced;
      y_inner = tape::ops::matmul_transpose_b(q, Tensor::from(kM, Shape{kD, kD}));
    }
    const std::array<OpaqueValue, 1> outs{OpaqueValue{y_inner.data(), y_inner.shape()}};
    const std::array<OpaqueValue, 1> saved{OpaqueValue{kM, Shape{kD, kD}}};
    const std::array<Tensor, 1> ins{q};
    const std::vector<Tensor> y = tape::opaque::record_opaque(registry, OpaqueKey::frozen_delta_rule, ins, outs, saved);
    Grads g;
    g.ops_recorded_by_block = t.ops().size() - before;
    const Tensor loss = tape::ops::frobenius_dot(y.at(0), Tensor::from(kC, Shape{kS, kD}));
    t.backward(loss.id());
    g.w = t.get_grad(w.id());
    g.x = t.get_grad(x.id());
    return g;
  });
}

// Reference by hand: dQ = C M (via the registered function itself), dW = dQ^T X, dX = dQ W.
Grads expected(tape::OpaqueBackwardFn fn) {
  std::vector<float> dq(kS * kD, 0.0f);
  const std::array<std::span<const float>, 1> d_out{std::span<const float>(kC)};
  const std::array<std::span<const float>, 1> saved{std::span<const float>(kM)};
  const std::array<std::span<float>, 1> d_in{std::span<float>(dq)};
  fn(d_out, saved, d_in);
  Grads g;
  g.w.assign(kD * kD, 0.0f);
  g.x.assign(kS * kD, 0.0f);
  for (std::size_t t = 0; t < kS; ++t)
    for (std::size_t i = 0; i < kD; ++i)
      for (std::size_t j = 0; j < kD; ++j) {
        g.w[i * kD + j] += dq[t * kD + i] * kX[t * kD + j];
        g.x[t * kD + j] += dq[t * kD + i] * kW[i * kD + j];
      }
  return g;
}

void check_close(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i);
    CHECK(std::fabs(got[i] - want[i]) <= 1e-8 + 1e-6 * std::fabs(want[i]));
  }
}

}  // namespace

TEST_CASE("record_opaque: the tape's gradient through an opaque block is the registered VJP (Test Class 1)") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::frozen_delta_rule, frozen_read_backward).ok());
  const Grads g = run(registry);
  CHECK(g.ops_recorded_by_block == 1);  // only the Opaque record; the inner matmul stayed off the tape
  const Grads want = expected(frozen_read_backward);
  check_close(g.w, want.w);
  check_close(g.x, want.x);
}

TEST_CASE("record_opaque: no gradient leaks around the block (a wrong VJP is followed exactly)") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::frozen_delta_rule, tripled_backward).ok());
  const Grads g = run(registry);
  const Grads want = expected(tripled_backward);
  check_close(g.w, want.w);
  check_close(g.x, want.x);
  const Grads right = expected(frozen_read_backward);
  CHECK(g.w[0] == doctest::Approx(3 * right.w[0]));
}

TEST_CASE("record_opaque: a key with no registered function fails at record time, naming the key") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::memora, frozen_read_backward).ok());
  const std::vector<float> y(4, 1.0f);
  const std::array<OpaqueValue, 1> outs{OpaqueValue{y, Shape{4}}};
  const auto result = tape::try_with_tape([&](tape::Tape& t) {
    const std::array<Tensor, 1> ins{t.register_input(y, Shape{4})};
    return tape::opaque::record_opaque(registry, OpaqueKey::frozen_memora, ins, outs, {}).size();
  });
  REQUIRE_FALSE(result.ok());
  const std::string msg = result.error().message();
  INFO(msg);
  CHECK(msg.find("Opaque(FrozenMEMORA)") != std::string::npos);
  CHECK(msg.find("no backward function registered") != std::string::npos);
}

TEST_CASE("record_opaque: without a tape the outputs are returned and nothing is looked up (CS-40)") {
  const OpaqueRegistry empty;
  const std::vector<float> y = {1, 2, 3};
  const std::array<OpaqueValue, 1> outs{OpaqueValue{y, Shape{3}}};
  const std::vector<Tensor> r = tape::opaque::record_opaque(empty, OpaqueKey::swa, {}, outs, {});
  REQUIRE(r.size() == 1);
  CHECK(r[0].to_vector() == y);
  CHECK_FALSE(r[0].id().valid());
}

TEST_CASE("record_opaque: outputs and saved tensors are snapshots; malformed values are rejected") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::swa, frozen_read_backward).ok());
  tape::with_tape([&](tape::Tape& t) {
    std::vector<float> y = {1, 2, 3, 4};
    std::vector<float> saved = {5, 6};
    const std::array<Tensor, 1> ins{t.register_input(y, Shape{4})};
    const std::array<OpaqueValue, 1> outs{OpaqueValue{y, Shape{2, 2}}};
    const std::array<OpaqueValue, 1> keep{OpaqueValue{saved, Shape{2}}};
    const std::vector<Tensor> r = tape::opaque::record_opaque(registry, OpaqueKey::swa, ins, outs, keep);
    y[0] = 100;
    saved[0] = 100;
    CHECK(r.at(0)[0] == 1.0f);
    CHECK(r.at(0).shape() == Shape{2, 2});
    const auto& op = std::get<tape::OpaqueOp>(t.ops().back());
    CHECK(t.data(op.saved.at(0))[0] == 5.0f);
    CHECK(t.requires_grad(op.outputs.at(0)));

    const std::array<OpaqueValue, 1> wrong{OpaqueValue{y, Shape{3}}};
    CHECK_THROWS_AS((void)tape::opaque::record_opaque(registry, OpaqueKey::swa, ins, wrong, {}), tape::TapeError);
    const std::vector<float> nan = {std::nanf("")};
    const std::array<OpaqueValue, 1> bad{OpaqueValue{nan, Shape{1}}};
    CHECK_THROWS_AS((void)tape::opaque::record_opaque(registry, OpaqueKey::swa, ins, bad, {}), tape::TapeError);
  });
}

namespace {

// The frozen read with its M handed to the tape as the block's context (how the memory rules
// hand over their caches): the in-place VJP reads M there.
struct ReadContext {
  std::vector<float> m;
  int* calls;
};

void frozen_read_in_place(const void* context, Buffers d_outputs, Buffers saved,
                          std::span<const std::span<float>> d_inputs) {
  const auto& c = *static_cast<const ReadContext*>(context);
  ++*c.calls;
  CHECK(saved[0].data() == c.m.data());  // the saved value aliases the context
  const std::array<std::span<const float>, 1> m{std::span<const float>(c.m)};
  frozen_read_backward(d_outputs, m, d_inputs);
}

}  // namespace

TEST_CASE("record_opaque: a context is kept uncopied, read in place by backward, then freed") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::frozen_delta_rule, frozen_read_backward, frozen_read_in_place).ok());
  int calls = 0;
  std::weak_ptr<const void> alive;
  const Grads g = tape::with_tape([&](tape::Tape& t) {
    const Tensor w = t.register_param(kW, Shape{kD, kD});
    const Tensor x = t.register_input(kX, Shape{kS, kD});
    const Tensor q = tape::ops::matmul_transpose_b(x, w);
    Tensor y_inner;
    {
      tape::opaque::UntracedScope untraced;
      y_inner = tape::ops::matmul_transpose_b(q, Tensor::from(kM, Shape{kD, kD}));
    }
    auto context = std::make_shared<ReadContext>(ReadContext{kM, &calls});
    const float* m_data = context->m.data();
    alive = context;
    const std::array<OpaqueValue, 1> outs{OpaqueValue{y_inner.data(), y_inner.shape()}};
    const std::array<OpaqueValue, 2> saved{OpaqueValue{context->m, Shape{kD, kD}, true},
                                           OpaqueValue{q.data(), q.shape()}};
    const std::array<Tensor, 1> ins{q};
    const std::vector<Tensor> y =
        tape::opaque::record_opaque(registry, OpaqueKey::frozen_delta_rule, ins, outs, saved, std::move(context));
    const auto& op = std::get<tape::OpaqueOp>(t.ops().back());
    CHECK(t.data(op.saved.at(0)).data() == m_data);  // not copied
    CHECK(op.saved.at(1) == q.id());                  // an input's whole data: its own buffer
    CHECK_FALSE(alive.expired());
    const Tensor loss = tape::ops::frobenius_dot(y.at(0), Tensor::from(kC, Shape{kS, kD}));
    t.backward(loss.id());
    CHECK(alive.expired());  // freed once its VJP ran
    CHECK(t.data(op.saved.at(0)).empty());
    Grads r;
    r.w = t.get_grad(w.id());
    r.x = t.get_grad(x.id());
    return r;
  });
  CHECK(calls == 1);
  const Grads want = expected(frozen_read_backward);
  check_close(g.w, want.w);
  check_close(g.x, want.x);
}

TEST_CASE("record_opaque: a context needs the key's in-place function; a value in a context needs one") {
  OpaqueRegistry registry;
  REQUIRE(registry.register_backward(OpaqueKey::swa, frozen_read_backward).ok());
  const std::vector<float> y(4, 1.0f);
  const std::array<OpaqueValue, 1> outs{OpaqueValue{y, Shape{4}}};
  const auto context = std::make_shared<std::vector<float>>(2, 0.5f);
  const std::array<OpaqueValue, 1> in_context{OpaqueValue{*context, Shape{2}, true}};
  const auto no_in_place = tape::try_with_tape([&](tape::Tape& t) {
    const std::array<Tensor, 1> ins{t.register_input(y, Shape{4})};
    return tape::opaque::record_opaque(registry, OpaqueKey::swa, ins, outs, in_context, context).size();
  });
  REQUIRE_FALSE(no_in_place.ok());
  CHECK(no_in_place.error().message().find("no in-place backward function") != std::string::npos);
  const auto no_context = tape::try_with_tape([&](tape::Tape& t) {
    const std::array<Tensor, 1> ins{t.register_input(y, Shape{4})};
    return tape::opaque::record_opaque(registry, OpaqueKey::swa, ins, outs, in_context).size();
  });
  REQUIRE_FALSE(no_context.ok());
  CHECK(no_context.error().message().find("lives in a context, but none was given") != std::string::npos);
}
