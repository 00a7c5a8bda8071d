// JAX's activations (jax_activation.cpp) against XLA's own fp32 values: fixtures/mlp/
// jax-activations.txt holds jax.nn's forward and jax.grad's backward as jaxlib computed them
// (tests/support/jax_activation_fixtures.py), grid and worst points of XLA's approximations and
// its flushed-to-zero tails. Torch's formulas (activation.cpp) leave some of them outside their
// bounds: XLA's tanh is off by more than libm's 4 units, and its logistic flushes subnormals.
#include "mlp_audit/jax_activation.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "mlp_audit/activation.hpp"
#include "support/suite_paths.hpp"

namespace jax_activation_test {  // named: the unity build joins the test files

using namespace mlp_audit;

struct Row {
  std::string act;
  double x = 0, g = 0, y = 0, d = 0;
};

std::vector<Row> rows() {
  std::ifstream in(std::string(suite_test::source_dir()) + "/fixtures/mlp/jax-activations.txt");
  REQUIRE(in);
  std::vector<Row> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    Row r;
    std::string x, g, y, d;
    s >> r.act >> x >> g >> y >> d;
    r.x = std::strtod(x.c_str(), nullptr), r.g = std::strtod(g.c_str(), nullptr);
    r.y = std::strtod(y.c_str(), nullptr), r.d = std::strtod(d.c_str(), nullptr);
    out.push_back(r);
  }
  return out;
}

Activation named(const std::string& a) {
  const std::map<std::string, Activation> names{{"sigmoid", Activation::sigmoid}, {"tanh", Activation::tanh},
                                                {"silu", Activation::silu}, {"gelu", Activation::gelu},
                                                {"gelu_tanh", Activation::gelu_tanh}};
  return names.at(a);
}

bool inside(double stored, const T32& ref) { return std::abs(stored - ref.v) <= ref.e * (1 + 0x1p-30) + 0x1p-149; }

struct Flavour {
  T32 (*act)(const Layer&, const T32&);
  T32 (*der)(const Layer&, const T32&, const T32&, const T32&, std::uint64_t&);
};
const Flavour kJax{jax_activate, jax_derive}, kTorch{activate, derive};

// How many of the fixture's values per activation lie outside the flavour's bounds.
std::map<std::string, int> outside(const Flavour& f) {
  std::map<std::string, int> out;
  std::uint64_t kinks = 0;
  for (const Row& r : rows()) {
    const Layer l{1, 1, named(r.act)};
    const T32 z = T32::exact(r.x, 0), g = T32::exact(r.g, 0);
    const T32 a = f.act(l, z);
    out[r.act] += !inside(r.y, a) + !inside(r.d, f.der(l, z, a, g, kinks));
  }
  return out;
}

}  // namespace jax_activation_test

using namespace jax_activation_test;

TEST_CASE("jax_activation: XLA's forward and jax.grad's backward lie within JAX's bounds") {
  const std::vector<Row> all = rows();
  REQUIRE(all.size() == 5 * 496);
  for (const auto& [act, n] : outside(kJax)) {
    CAPTURE(act);
    CHECK(n == 0);
  }
}

TEST_CASE("jax_activation: torch's formulas do not cover XLA's tanh, logistic and their flushed tails") {
  std::map<std::string, int> torch = outside(kTorch);
  CHECK(torch["tanh"] > 0);
  CHECK(torch["sigmoid"] > 0);
  CHECK(torch["silu"] > 0);
}

// Where JAX's own fp32 formula keeps its digits. It loses some in 1 + tanh near -1 (GELU tanh's
// forward for x below about -1.5) and 1 - tanh near 1 (the derivatives): there a 7th-digit change is
// within what fp32 can do, hence the fractions. Torch's formula for exact GELU (erf with ATen's
// vectorized slack) catches only 103 of the 150 forward values.
TEST_CASE("jax_activation: a value changed in its 7th significant digit leaves its bound") {
  std::uint64_t kinks = 0;
  std::map<std::string, std::pair<int, int>> forward, backward;  // caught, tried
  for (const Row& r : rows()) {
    if (std::abs(r.x) > 4) continue;
    const Layer l{1, 1, named(r.act)};
    const T32 z = T32::exact(r.x, 0);
    const T32 a = jax_activate(l, z), d = jax_derive(l, z, a, T32::exact(r.g, 0), kinks);
    if (std::abs(r.y) >= 1e-3) forward[r.act].first += !inside(r.y * (1 + 5e-6), a), ++forward[r.act].second;
    if (std::abs(r.d) >= 0.05) backward[r.act].first += !inside(r.d * (1 + 5e-6), d), ++backward[r.act].second;
  }
  const std::map<std::string, std::pair<double, double>> least{
      {"sigmoid", {1, 1}}, {"silu", {1, 1}}, {"gelu", {1, 0.95}}, {"gelu_tanh", {0.75, 0.75}}, {"tanh", {1, 0.7}}};
  REQUIRE(forward.size() == least.size());
  for (const auto& [act, want] : least) {
    CAPTURE(act);
    const auto [fc, ft] = forward[act];
    const auto [bc, bt] = backward[act];
    CAPTURE(fc);
    CAPTURE(bc);
    CHECK(ft > 100);
    CHECK(bt > 80);
    CHECK(fc >= want.first * ft);
    CHECK(bc >= want.second * bt);
  }
}

// jax.nn.leaky_relu is where(x >= 0, x, slope * x): its derivative at an exact 0 is 1 (torch's is
// the slope); jax.nn.relu's custom JVP gives 0 there, as torch's threshold_backward does.
TEST_CASE("jax_activation: LeakyReLU's and ReLU's derivatives at an exact 0 are JAX's") {
  std::uint64_t kinks = 0;
  const Layer leaky{1, 1, Activation::leaky_relu, 0.2}, relu{1, 1, Activation::relu};
  const T32 zero = T32::exact(0, 0), g = T32::exact(0.75, 0);
  CHECK(jax_derive(leaky, zero, jax_activate(leaky, zero), g, kinks).v == 0.75);
  CHECK(jax_derive(relu, zero, jax_activate(relu, zero), g, kinks).v == 0);
  CHECK(jax_derive(leaky, T32::exact(-1, 0), T32::exact(-0.2, 0), g, kinks).v == doctest::Approx(0.15));
  CHECK(kinks == 0);
}
