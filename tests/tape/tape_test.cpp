#include "tape/tape.hpp"

#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cmath>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/ops/softmax.hpp"

using namespace tape;

TEST_CASE("with_tape: the tape is active only inside, records each op once, and returns f's value") {
  CHECK(active_tape() == nullptr);
  const std::size_t n_ops = with_tape([](Tape& t) {
    CHECK(active_tape() == &t);
    const Tensor x = t.register_input(std::vector<float>{1, 2}, {2});
    const Tensor y = ops::sigmoid(ops::mul(x, x));
    CHECK(y.id().valid());
    CHECK(y.id().tape_serial() == t.serial());
    return t.ops().size();
  });
  CHECK(n_ops == 2);
  CHECK(active_tape() == nullptr);
}

TEST_CASE("with_tape: without a tape ops record nothing and carry no BufId") {
  const Tensor x = Tensor::from(std::vector<float>{1, 2}, {2});
  const Tensor y = ops::sigmoid(ops::mul(x, x));
  CHECK_FALSE(y.id().valid());
  CHECK(active_tape() == nullptr);
  // A later tape starts empty: nothing leaked from the untraced calls.
  CHECK(with_tape([](Tape& t) { return t.ops().size() + t.num_bufs(); }) == 0);
}

TEST_CASE("with_tape: nesting on one thread is refused and the outer tape stays active") {
  with_tape([](Tape& outer) {
    CHECK_THROWS_WITH_AS(with_tape([](Tape&) {}),
                         "with_tape: a tape is already active on this thread (one tape per thread)", TapeError);
    CHECK(active_tape() == &outer);
  });
  CHECK(active_tape() == nullptr);
}

TEST_CASE("with_tape: an exception inside f leaves no active tape behind") {
  CHECK_THROWS_AS(with_tape([](Tape&) { throw TapeError("test", "boom", {}); }), TapeError);
  CHECK(active_tape() == nullptr);
}

TEST_CASE("register_param: the tape keeps a snapshot; later edits to the source do not reach it") {
  std::vector<float> w{1, 2, 3};
  const auto [grad, data] = with_tape([&](Tape& t) {
    const Tensor p = t.register_param(w, {3});
    w[0] = 100.0f;  // in-place update after registration (CS-47)
    const Tensor loss = ops::frobenius_dot(p, p);
    t.backward(loss.id());
    CHECK(loss.item() == 14.0f);
    return std::pair{t.get_grad(p.id()), std::vector<float>(t.data(p.id()).begin(), t.data(p.id()).end())};
  });
  CHECK(data == std::vector<float>{1, 2, 3});
  CHECK(grad == std::vector<float>{2, 4, 6});
}

TEST_CASE("backward: a buffer feeding several ops receives the sum of their gradients") {
  // L = <x, x> + sum(sigmoid(x) * x) ; dL/dx = 2x + sigmoid(x) + x sigmoid'(x)
  const std::vector<float> xv{0.5f, -1.0f, 2.0f};
  const auto g = with_tape([&](Tape& t) {
    const Tensor x = t.register_param(xv, {3});
    const Tensor ones = Tensor::from(std::vector<float>(3, 1.0f), {3});
    const Tensor loss = ops::add(ops::frobenius_dot(x, x), ops::frobenius_dot(ops::mul(ops::sigmoid(x), x), ones));
    t.backward(loss.id());
    return t.extract_param_grads(std::array{x.id()});
  });
  REQUIRE(g.size() == 1);
  for (std::size_t i = 0; i < 3; ++i) {
    const double x = xv[i];
    const double s = 1.0 / (1.0 + std::exp(-x));
    CHECK(g[0][i] == doctest::Approx(2 * x + s + x * s * (1 - s)).epsilon(1e-6));
  }
}

TEST_CASE("backward: constants and leaves off the loss path carry zero gradient") {
  with_tape([](Tape& t) {
    const Tensor p = t.register_param(std::vector<float>{1, 2}, {2});
    const Tensor unused = t.register_param(std::vector<float>{5, 5}, {2});
    const Tensor c = Tensor::from(std::vector<float>{3, 4}, {2});
    const Tensor loss = ops::frobenius_dot(p, c);
    t.backward(loss.id());
    CHECK(t.get_grad(p.id()) == std::vector<float>{3, 4});
    CHECK(t.get_grad(unused.id()) == std::vector<float>{0, 0});
    CHECK(t.requires_grad(loss.id()));
    CHECK(t.requires_grad(unused.id()));
    CHECK(t.is_param(unused.id()));
  });
}

TEST_CASE("backward: a non-scalar loss, a second backward and a wrong seed size are errors") {
  with_tape([](Tape& t) {
    const Tensor x = t.register_input(std::vector<float>{1, 2, 3, 4}, {2, 2});
    const Tensor y = ops::sigmoid(x);
    CHECK_THROWS_WITH_AS(t.backward(y.id()),
                         "backward: loss must be a scalar (one element); seed a non-scalar output explicitly; "
                         "shapes [2,2]",
                         TapeError);
    CHECK_THROWS_WITH_AS(t.backward(y.id(), std::vector<float>{1}),
                         "backward: seed holds 1 values, output has 4; shapes [2,2]", TapeError);
    CHECK_THROWS_WITH_AS((void)t.get_grad(x.id()), "get_grad: backward has not run on this tape; shapes [2,2]",
                         TapeError);
    const Tensor loss = ops::l2_norm(y);
    t.backward(loss.id());
    CHECK_THROWS_WITH_AS(t.backward(loss.id()), "backward: backward already ran on this tape; shapes []", TapeError);
    CHECK_THROWS_WITH_AS((void)ops::sigmoid(x),
                         "Tape: op recorded after backward (a tape runs forward, then backward once)", TapeError);
  });
}

TEST_CASE("BufId: an id or tensor from another tape is rejected with both tape numbers") {
  Tensor stale;
  BufId stale_id;
  std::uint32_t first = 0;
  with_tape([&](Tape& t) {
    stale = t.register_param(std::vector<float>{1, 2}, {2});
    stale_id = stale.id();
    first = t.serial();
  });
  with_tape([&](Tape& t) {
    const std::string other = "BufId{tape " + std::to_string(first) + ", index 0}";
    const std::string here = "(this is tape " + std::to_string(t.serial()) + ")";
    CHECK_THROWS_WITH_AS((void)ops::sigmoid(stale), ("Sigmoid: input " + other + " belongs to another tape " + here +
                                                      "; shapes [2]").c_str(),
                         TapeError);
    CHECK_THROWS_WITH_AS((void)t.shape(stale_id), ("Tape: " + other + " belongs to another tape " + here).c_str(),
                         TapeError);
    const Tensor x = t.register_input(std::vector<float>{1}, {});
    t.backward(x.id());
    CHECK_THROWS_WITH_AS((void)t.get_grad(stale_id),
                         ("get_grad: " + other + " belongs to another tape " + here).c_str(), TapeError);
    CHECK_THROWS_WITH_AS(t.backward(stale_id), ("backward: " + other + " belongs to another tape " + here).c_str(),
                         TapeError);
  });
  // Outside any tape a tensor's id is irrelevant: it is just a value.
  CHECK(ops::negate(stale).to_vector() == std::vector<float>{-1, -2});
}

TEST_CASE("extract_param_grads: returns grads in the order asked and refuses non-parameters") {
  with_tape([](Tape& t) {
    const Tensor a = t.register_param(std::vector<float>{1, 2}, {2});
    const Tensor b = t.register_param(std::vector<float>{3, 4}, {2});
    const Tensor in = t.register_input(std::vector<float>{1, 1}, {2});
    const Tensor loss = ops::frobenius_dot(ops::mul(a, b), in);
    t.backward(loss.id());
    const auto g = t.extract_param_grads(std::array{b.id(), a.id()});
    CHECK(g == std::vector<std::vector<float>>{{1, 2}, {3, 4}});
    CHECK(t.get_grad(in.id()) == std::vector<float>{3, 8});
    CHECK_THROWS_WITH_AS((void)t.extract_param_grads(std::array{in.id()}),
                         ("extract_param_grads: BufId{tape " + std::to_string(t.serial()) +
                          ", index 2} is not a registered parameter; shapes [2]")
                             .c_str(),
                         TapeError);
  });
}

TEST_CASE("registration and Tensor::from reject wrong sizes and non-finite data") {
  const std::vector<float> nan{1.0f, std::nanf("")};
  CHECK_THROWS_WITH_AS((void)Tensor::from(nan, {2}), "Tensor: data contains NaN or Inf; shapes [2]", TapeError);
  CHECK_THROWS_WITH_AS((void)Tensor::from(nan, {3}), "Tensor: data holds 2 values, shape needs 3; shapes [3]",
                       TapeError);
  with_tape([&](Tape& t) {
    CHECK_THROWS_WITH_AS((void)t.register_param(nan, {2}), "register_param: data contains NaN or Inf; shapes [2]",
                         TapeError);
    CHECK_THROWS_WITH_AS((void)t.register_input(nan, {1, 3}),
                         "register_input: data holds 2 values, shape needs 3; shapes [1,3]", TapeError);
    CHECK_THROWS_WITH_AS((void)ops::sigmoid(Tensor{}), "Sigmoid: input tensor is empty (default-constructed)",
                         TapeError);
  });
}

TEST_CASE("try_with_tape: a TapeError becomes a common::Error naming the op and shapes") {
  const auto bad = try_with_tape([](Tape& t) {
    const Tensor a = t.register_param(std::vector<float>(6, 1.0f), {2, 3});
    return ops::matmul(a, a).item();
  });
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == common::ErrorCode::invalid_argument);
  CHECK(bad.error().message() == "tape: Matmul: inner dimensions differ; shapes [2,3] [2,3]");
  CHECK_FALSE(bad.error().non_finite());
  const auto good = try_with_tape([](Tape& t) {
    return ops::l2_norm(t.register_param(std::vector<float>{3, 4}, {2})).item();
  });
  REQUIRE(good.ok());
  CHECK(*good == 5.0f);
}

TEST_CASE("try_with_tape: a NaN or Inf is a TapeFailure that says so by its type") {
  const auto overflow = try_with_tape([](Tape& t) {
    const Tensor a = t.register_param(std::vector<float>{3e38f, 3e38f}, {2});
    return ops::l2_norm(ops::add(a, a)).item();
  });
  REQUIRE_FALSE(overflow.ok());
  CHECK(overflow.error().non_finite());
  CHECK(overflow.error().message().find("NaN or Inf") != std::string::npos);
  // Kept as a common::Error where a caller returns it as one.
  const common::Error as_error = overflow.error();
  CHECK(as_error.code() == common::ErrorCode::invalid_argument);
}

TEST_CASE("forward: identical bits with and without a tape across a small network") {
  const std::vector<float> xv{0.1f, -0.7f, 1.3f, 0.4f, 2.2f, -1.1f};
  const std::vector<float> wv{0.3f, -0.2f, 0.5f, 0.9f, -0.6f, 0.05f};
  const std::vector<std::size_t> tgt{1, 0};
  auto net = [&](const Tensor& x, const Tensor& w) {
    return ops::cross_entropy(ops::softmax(ops::silu(ops::matmul_transpose_b(x, w))), tgt);
  };
  const float plain = net(Tensor::from(xv, {2, 3}), Tensor::from(wv, {2, 3})).item();
  const float traced = with_tape([&](Tape& t) { return net(t.register_input(xv, {2, 3}), t.register_param(wv, {2, 3})).item(); });
  CHECK(std::bit_cast<std::uint32_t>(plain) == std::bit_cast<std::uint32_t>(traced));
}

TEST_CASE("with_tape: a tensor returned out of the tape keeps its storage alive") {
  const Tensor y = with_tape([](Tape& t) {
    const Tensor x = t.register_input(std::vector<float>{1, 2, 3}, {3});
    return ops::scale(x, 2.0f);
  });
  CHECK(y.to_vector() == std::vector<float>{2, 4, 6});
  CHECK(y.id().valid());  // still names its (gone) tape, so no later tape will accept it
}
