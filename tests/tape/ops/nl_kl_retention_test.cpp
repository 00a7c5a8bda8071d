#include "tape/ops/nl_kl_retention.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "tape/ops/fd_check.hpp"
#include "tape/ops/nl_tape_check.hpp"

namespace {

using tape::ops::KlRetentionParams;
using tapetest::cast_vector;

const KlRetentionParams kParams{0.8, 0.6, 3, 4};

// x = prior ++ grad, so one FD sweep covers both inputs.
std::vector<double> forward64(const std::vector<double>& x, const KlRetentionParams& p) {
  const std::size_t n = p.rows * p.cols;
  std::vector<double> prior(x.begin(), x.begin() + n), grad(x.begin() + n, x.end()), out(n);
  tape::ops::kl_retention_forward<double>(prior, grad, p, out);
  return out;
}

template <typename T>
std::vector<T> vjp(const std::vector<double>& x64, const std::vector<double>& w64, const KlRetentionParams& p) {
  const std::size_t n = p.rows * p.cols;
  const std::vector<T> x = cast_vector<T>(x64), w = cast_vector<T>(w64);
  std::vector<T> prior(x.begin(), x.begin() + n), grad(x.begin() + n, x.end()), out(n);
  std::vector<T> d_prior(n, T(0)), d_grad(n, T(0));
  tape::ops::kl_retention_forward<T>(prior, grad, p, out);
  tape::ops::kl_retention_backward<T>(prior, out, w, p, d_prior, d_grad);
  d_prior.insert(d_prior.end(), d_grad.begin(), d_grad.end());
  return d_prior;
}

std::vector<double> inputs(unsigned seed) {
  auto prior = tapetest::random_vector(12, 0.05, 1.0, seed);
  const auto grad = tapetest::random_vector(12, -1.0, 1.0, seed + 1);
  prior.insert(prior.end(), grad.begin(), grad.end());
  return prior;
}

}  // namespace

TEST_CASE("nl_kl_retention: rows are on the simplex and match softmax(alpha log p - theta g)") {
  const auto x = inputs(41);
  const auto out = forward64(x, kParams);
  for (std::size_t r = 0; r < 3; ++r) {
    double sum = 0;
    for (std::size_t j = 0; j < 4; ++j) sum += out[r * 4 + j];
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
  }
  const auto z = [&](std::size_t i) { return 0.8 * std::log(x[i]) - 0.6 * x[12 + i]; };
  CHECK(out[1] / out[2] == doctest::Approx(std::exp(z(1) - z(2))).epsilon(1e-12));
}

TEST_CASE("nl_kl_retention: fp64 VJP (prior and grad) matches fp64 central differences") {
  const auto x = inputs(42);
  const auto w = tapetest::random_vector(12, -1, 1, 43);
  const auto f = [](const std::vector<double>& v) { return forward64(v, kParams); };
  const auto m = tapetest::compare_gradients(vjp<double>(x, w, kParams), tapetest::fd_gradient(f, x, w, 1e-7), 1e-6);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-5);
}

TEST_CASE("nl_kl_retention: fp32 VJP agrees with the fp64 finite differences") {
  const auto x = inputs(44);
  const auto w = tapetest::random_vector(12, -1, 1, 45);
  const auto f = [](const std::vector<double>& v) { return forward64(v, kParams); };
  const auto m = tapetest::compare_gradients(vjp<float>(x, w, kParams), tapetest::fd_gradient(f, x, w, 1e-7), 1e-4);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-3);
}

TEST_CASE("nl_kl_retention: prior entries at or below the 1e-8 floor get exactly zero gradient") {
  const KlRetentionParams p{1.5, 0.3, 1, 3};
  const std::vector<double> x = {0.0, 5e-9, 0.7, 0.1, -0.2, 0.4};
  const auto d = vjp<double>(x, {1.0, -2.0, 0.5}, p);
  CHECK(d[0] == 0.0);
  CHECK(d[1] == 0.0);
  CHECK(d[2] != 0.0);
  CHECK(d[3] != 0.0);  // grad input still receives -theta * d_z
  const auto out = forward64(x, p);
  CHECK(out[0] == doctest::Approx(out[1] * std::exp(0.3 * (-0.2 - 0.1))).epsilon(1e-12));
}

TEST_CASE("nl_kl_retention: traced op records one CustomOp; tape VJPs of prior and grad match fp64 FD") {
  const auto x = inputs(55);
  const auto w = tapetest::random_vector(12, -1, 1, 56);
  const std::vector<float> x32 = cast_vector<float>(x);
  const std::vector<float> prior(x32.begin(), x32.begin() + 12), grad(x32.begin() + 12, x32.end());
  const auto r = tapetest::run_on_tape(
      [](auto in) { return tape::ops::kl_retention(in[0], in[1], static_cast<float>(kParams.alpha),
                                                   static_cast<float>(kParams.theta)); },
      {prior, grad}, tape::Shape{3, 4}, cast_vector<float>(w));
  CHECK(r.records == 1);
  CHECK(r.traced_out == r.untraced_out);
  // The op's constants are fp32; re-evaluate in fp64 with the same rounded values.
  const KlRetentionParams p32{static_cast<float>(kParams.alpha), static_cast<float>(kParams.theta), 3, 4};
  const auto f = [&](const std::vector<double>& v) { return forward64(v, p32); };
  const std::vector<double> xd(x32.begin(), x32.end());
  const std::vector<float> w32 = cast_vector<float>(w);
  const auto fd = tapetest::fd_gradient(f, xd, std::vector<double>(w32.begin(), w32.end()), 1e-7);
  std::vector<float> tape_grads = r.grads.at(0);
  tape_grads.insert(tape_grads.end(), r.grads.at(1).begin(), r.grads.at(1).end());
  const auto m = tapetest::compare_gradients(tape_grads, fd, 1e-4);
  INFO("worst entry " << m.index << ": tape " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-3);
}

TEST_CASE("nl_kl_retention: a constant input gets no gradient; the tracked one still does") {
  const std::vector<float> prior = {0.2f, 0.3f, 0.5f}, grad = {0.1f, -0.4f, 0.2f}, w = {1.0f, -1.0f, 0.5f};
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor p = t.register_input(prior, tape::Shape{1, 3});
    const tape::Tensor g = tape::Tensor::from(grad, tape::Shape{1, 3});  // constant
    const tape::Tensor out = tape::ops::kl_retention(p, g, 0.7f, 0.9f);
    t.backward(out.id(), w);
    const std::vector<float> dp = t.get_grad(p.id());
    std::vector<float> o(3), want(3, 0.0f), unused(3, 0.0f);
    const KlRetentionParams params{0.7f, 0.9f, 1, 3};
    tape::ops::kl_retention_forward<float>(prior, grad, params, o);
    tape::ops::kl_retention_backward<float>(prior, o, w, params, want, unused);
    for (std::size_t i = 0; i < 3; ++i) CHECK(dp[i] == doctest::Approx(want[i]));
  });
}

TEST_CASE("nl_kl_retention: mismatched shapes are a TapeError naming the op") {
  const auto a = tape::Tensor::from(std::vector<float>{0.5f, 0.5f}, tape::Shape{1, 2});
  const auto b = tape::Tensor::from(std::vector<float>{0.5f, 0.5f, 0.1f}, tape::Shape{1, 3});
  CHECK_THROWS_WITH_AS((void)tape::ops::kl_retention(a, b, 1.0f, 1.0f), doctest::Contains("KLRetention"),
                       tape::TapeError);
}
