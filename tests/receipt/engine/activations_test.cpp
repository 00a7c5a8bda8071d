#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "receipt/engine/activations.hpp"
#include "receipt/engine/losses.hpp"

using receipt::engine::activate;
using receipt::engine::derivative_from_out;
using receipt::topology::Activation;

namespace {
double central_difference(double (*f)(double, void*), void* ctx, double x, double h = 1e-6) {
  return (f(x + h, ctx) - f(x - h, ctx)) / (2 * h);
}
double act(double x, void* ctx) { return activate(*static_cast<Activation*>(ctx), x); }
}  // namespace

TEST_CASE("activations: derivative_from_out matches finite differences") {
  for (Activation a : {Activation::sigmoid, Activation::identity, Activation::relu}) {
    for (double x : {-3.0, -0.7, 0.3, 1.1, 4.0}) {
      CAPTURE(receipt::topology::to_string(a));
      CAPTURE(x);
      const double fd = central_difference(act, &a, x);
      CHECK(derivative_from_out(a, activate(a, x)) == doctest::Approx(fd).epsilon(1e-7));
    }
  }
}

TEST_CASE("activations: relu at and below zero") {
  CHECK(activate(Activation::relu, 0.0) == 0.0);
  CHECK(activate(Activation::relu, -2.0) == 0.0);
  CHECK(derivative_from_out(Activation::relu, 0.0) == 0.0);
}

TEST_CASE("activations: softmax sums to one and is shift invariant") {
  const std::vector<double> z = {0.5, -1.0, 2.0};
  std::vector<double> p(3), q(3);
  receipt::engine::softmax(z.data(), p.data(), 3);
  const std::vector<double> shifted = {100.5, 99.0, 102.0};
  receipt::engine::softmax(shifted.data(), q.data(), 3);
  CHECK(p[0] + p[1] + p[2] == doctest::Approx(1.0).epsilon(1e-15));
  for (int i = 0; i < 3; ++i) CHECK(p[i] == doctest::Approx(q[i]).epsilon(1e-12));
  CHECK(p[2] > p[0]);
}

TEST_CASE("losses: softmax + cross-entropy gradient is y - p (descent direction)") {
  const std::vector<double> z = {0.3, -0.2, 0.9};
  const std::vector<double> y = {0.0, 1.0, 0.0};
  const auto loss = [&](const std::vector<double>& logits) {
    std::vector<double> p(3);
    receipt::engine::softmax(logits.data(), p.data(), 3);
    double e = 0;
    for (int i = 0; i < 3; ++i) e += receipt::engine::cross_entropy(y[i], p[i]);
    return e;
  };
  std::vector<double> p(3);
  receipt::engine::softmax(z.data(), p.data(), 3);
  for (int u = 0; u < 3; ++u) {
    auto plus = z, minus = z;
    plus[u] += 1e-6;
    minus[u] -= 1e-6;
    const double dE = (loss(plus) - loss(minus)) / 2e-6;
    CHECK(y[u] - p[u] == doctest::Approx(-dE).epsilon(1e-7));
  }
}

TEST_CASE("losses: half squared error and its derivative") {
  CHECK(receipt::engine::half_squared_error(1.0, 0.25) == 0.28125);
  const double t = 0.7, out = 0.2, h = 1e-6;
  const double dE = (receipt::engine::half_squared_error(t, out + h) - receipt::engine::half_squared_error(t, out - h)) / (2 * h);
  CHECK(t - out == doctest::Approx(-dE).epsilon(1e-8));
  CHECK(receipt::engine::cross_entropy(0.0, 0.0) == 0.0);  // 0 * log 0 is taken as 0
}

TEST_CASE("activations: sigmoid and cross-entropy use V8's exp/log, not the C library's") {
  // Node: 1 / (1 + Math.exp(-x)) and -Math.log(p) at arguments where glibc rounds differently.
  CHECK(activate(Activation::sigmoid, 0x1.a12839042d8c1p-4) == 0x1.0d066015e567cp-1);
  CHECK(receipt::engine::cross_entropy(1.0, 0x1.cfa8b4bf8fcd3p-4) == 0x1.16dcea28ea2b2p+1);
}
