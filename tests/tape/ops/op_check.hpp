#pragma once
// Checks shared by the standard-op tests. For one op applied to random inputs:
//  (a) check_vjp_fd: the tape's VJP (fp32) against central differences (fd_check.hpp, the oracle
//      the NL op tests use too) of an fp64 re-evaluation of the same forward kernels, for every
//      input element;
//  (c) check_accumulates: two uses of the same inputs give exactly twice one use's gradient;
//  (d) check_untraced_bitwise: outside with_tape the op returns bitwise the same values and
//      carries no BufId.
// The VJP is seeded with random weights w (backward(out, w)), so the gradient is J^T w.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "tape/ops/fd_check.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/tape.hpp"

namespace tape::testing {

using Traced = std::function<Tensor(std::span<const Tensor>)>;
using Reference = std::function<std::vector<double>(const std::vector<std::vector<double>>&)>;

struct OpCase {
  std::string name;
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> values;  // one per input
  Traced traced;
  Reference f64;
};

inline std::vector<float> random_values(std::size_t n, std::uint32_t seed, float lo = -2.0f, float hi = 2.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// Random inputs for each shape (seeded by position, so every run sees the same values).
inline OpCase make_case(std::string name, std::vector<Shape> shapes, Traced traced, Reference f64,
                        float lo = -2.0f, float hi = 2.0f) {
  OpCase c{std::move(name), std::move(shapes), {}, std::move(traced), std::move(f64)};
  for (std::size_t i = 0; i < c.shapes.size(); ++i)
    c.values.push_back(random_values(c.shapes[i].numel(), 1234u + 17u * static_cast<std::uint32_t>(i), lo, hi));
  return c;
}

struct TapeRun {
  std::vector<float> out;
  std::vector<std::vector<float>> grads;
};

// Runs the op `uses` times on the same registered inputs, sums the outputs, seeds with w.
inline TapeRun run_on_tape(const OpCase& c, const std::vector<float>& w, int uses) {
  return with_tape([&](Tape& t) {
    std::vector<Tensor> in;
    for (std::size_t i = 0; i < c.shapes.size(); ++i) in.push_back(t.register_input(c.values[i], c.shapes[i]));
    Tensor out = c.traced(in);
    const std::vector<float> first = out.to_vector();
    for (int u = 1; u < uses; ++u) out = ops::add(out, c.traced(in));
    t.backward(out.id(), w);
    TapeRun r{first, {}};
    for (const Tensor& x : in) r.grads.push_back(t.get_grad(x.id()));
    return r;
  });
}

inline std::vector<float> seed_weights(std::size_t n) { return random_values(n, 99u, -1.0f, 1.0f); }

// (a) every element of every input: |tape - fd| <= atol + rtol |fd|
inline void check_vjp_fd(const OpCase& c, double rtol = 1e-3, double atol = 1e-5) {
  const std::size_t n_out = [&] {
    std::vector<std::vector<double>> x;
    for (const auto& v : c.values) x.emplace_back(v.begin(), v.end());
    return c.f64(x).size();
  }();
  const std::vector<float> w = seed_weights(n_out);
  const TapeRun run = run_on_tape(c, w, 1);
  REQUIRE(run.out.size() == n_out);
  std::vector<std::vector<double>> x;
  for (const auto& v : c.values) x.emplace_back(v.begin(), v.end());
  const std::vector<double> wd(w.begin(), w.end());
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE(run.grads[i].size() == x[i].size());
    // The op as a function of input i, the other inputs held.
    const auto of_input = [&](const std::vector<double>& xi) {
      std::vector<std::vector<double>> all = x;
      all[i] = xi;
      return c.f64(all);
    };
    const std::vector<double> fd = tapetest::fd_gradient(of_input, x[i], wd, 1e-6, tapetest::FdStep::relative);
    for (std::size_t j = 0; j < x[i].size(); ++j) {
      const double got = run.grads[i][j];
      INFO(c.name << ": d input " << i << " [" << j << "]: tape " << got << ", fd " << fd[j]);
      CHECK(std::abs(got - fd[j]) <= atol + rtol * std::abs(fd[j]));
    }
  }
}

// (c) gradients accumulate: using the inputs twice doubles every gradient (to rounding: a VJP
// that sums several terms into one accumulator may round differently the second time).
inline void check_accumulates(const OpCase& c) {
  std::vector<std::vector<double>> x;
  for (const auto& v : c.values) x.emplace_back(v.begin(), v.end());
  const std::vector<float> w = seed_weights(c.f64(x).size());
  const TapeRun once = run_on_tape(c, w, 1);
  const TapeRun twice = run_on_tape(c, w, 2);
  bool any_nonzero = false;
  for (std::size_t i = 0; i < once.grads.size(); ++i) {
    for (std::size_t j = 0; j < once.grads[i].size(); ++j) {
      INFO(c.name << ": d input " << i << " [" << j << "]");
      CHECK(twice.grads[i][j] == doctest::Approx(2.0 * once.grads[i][j]).epsilon(1e-6));
      any_nonzero = any_nonzero || once.grads[i][j] != 0.0f;
    }
  }
  CHECK_MESSAGE(any_nonzero, c.name << ": all gradients are zero, the check proves nothing");
}

// (d) no tape: same bits, no id, nothing active.
inline void check_untraced_bitwise(const OpCase& c) {
  std::vector<Tensor> in;
  for (std::size_t i = 0; i < c.shapes.size(); ++i) in.push_back(Tensor::from(c.values[i], c.shapes[i]));
  REQUIRE(active_tape() == nullptr);
  const Tensor plain = c.traced(in);
  CHECK_FALSE(plain.id().valid());
  const std::vector<float> w = seed_weights(plain.numel());
  const TapeRun traced = run_on_tape(c, w, 1);
  REQUIRE(traced.out.size() == plain.numel());
  CHECK(std::memcmp(traced.out.data(), plain.data().data(), plain.numel() * sizeof(float)) == 0);
}

inline void check_all(const OpCase& c, double rtol = 1e-3, double atol = 1e-5) {
  check_vjp_fd(c, rtol, atol);
  check_accumulates(c);
  check_untraced_bitwise(c);
}

// fp64 helpers for the references.
inline std::vector<double> zeros(std::size_t n) { return std::vector<double>(n, 0.0); }

}  // namespace tape::testing
