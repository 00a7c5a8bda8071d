#include "tape/ops/nl_normalized_silu.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "tape/ops/fd_check.hpp"
#include "tape/ops/nl_tape_check.hpp"

namespace {

using tapetest::cast_vector;

constexpr std::size_t kRows = 3;
constexpr std::size_t kCols = 5;

std::vector<double> forward64(const std::vector<double>& x, std::size_t rows, std::size_t cols) {
  std::vector<double> out(x.size()), norms(rows);
  tape::ops::normalized_silu_forward<double>(x, rows, cols, out, norms);
  return out;
}

template <typename T>
std::vector<T> vjp(const std::vector<double>& x64, const std::vector<double>& w64, std::size_t rows,
                   std::size_t cols) {
  const std::vector<T> x = cast_vector<T>(x64), w = cast_vector<T>(w64);
  std::vector<T> out(x.size()), norms(rows), dx(x.size(), T(0));
  tape::ops::normalized_silu_forward<T>(x, rows, cols, out, norms);
  tape::ops::normalized_silu_backward<T>(x, out, norms, w, rows, cols, dx);
  return dx;
}

}  // namespace

TEST_CASE("nl_normalized_silu: rows have norm sqrt(m) and the silu direction") {
  const std::vector<double> x = {0.5, -1.0, 2.0, 0.25, -3.0};
  const std::vector<double> out = forward64(x, 1, 5);
  double sq = 0;
  for (double v : out) sq += v * v;
  CHECK(std::sqrt(sq) == doctest::Approx(std::sqrt(5.0)).epsilon(1e-12));
  // silu(0.5) = 0.5 * sigmoid(0.5); the ratio of two outputs equals the ratio of their silus.
  const auto silu = [](double v) { return v / (1 + std::exp(-v)); };
  CHECK(out[0] / out[2] == doctest::Approx(silu(0.5) / silu(2.0)).epsilon(1e-12));
}

TEST_CASE("nl_normalized_silu: fp64 VJP matches fp64 central differences on every entry") {
  const auto x = tapetest::random_vector(kRows * kCols, -3, 3, 11);
  const auto w = tapetest::random_vector(kRows * kCols, -1, 1, 12);
  const auto f = [](const std::vector<double>& v) { return forward64(v, kRows, kCols); };
  const auto fd = tapetest::fd_gradient(f, x, w);
  const auto m = tapetest::compare_gradients(vjp<double>(x, w, kRows, kCols), fd, 1e-6);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-6);
}

TEST_CASE("nl_normalized_silu: fp32 VJP agrees with the fp64 finite differences") {
  const auto x = tapetest::random_vector(kRows * kCols, -3, 3, 21);
  const auto w = tapetest::random_vector(kRows * kCols, -1, 1, 22);
  const auto f = [](const std::vector<double>& v) { return forward64(v, kRows, kCols); };
  const auto m = tapetest::compare_gradients(vjp<float>(x, w, kRows, kCols), tapetest::fd_gradient(f, x, w), 1e-4);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-4);
}

TEST_CASE("nl_normalized_silu: a row whose silu norm is <= 1e-8 outputs 0 with zero gradient") {
  // silu(x) = 0 exactly at x = 0 and x <= -15 (clamped sigmoid).
  const std::vector<double> x = {0.0, -20.0, -16.0, 1.0, 2.0, 3.0};
  const std::vector<double> out = forward64(x, 2, 3);
  for (std::size_t j = 0; j < 3; ++j) CHECK(out[j] == 0.0);
  CHECK(out[3] != 0.0);
  const std::vector<double> dx = vjp<double>(x, {1, 1, 1, 1, -1, 0.5}, 2, 3);
  for (std::size_t j = 0; j < 3; ++j) CHECK(dx[j] == 0.0);
  CHECK(dx[3] != 0.0);
}

TEST_CASE("nl_normalized_silu: the VJP accumulates into d_x") {
  const std::vector<float> x = {0.3f, -0.7f, 1.1f}, w = {1, 2, 3};
  std::vector<float> out(3), norms(1), once(3, 0.0f), twice(3, 0.0f);
  tape::ops::normalized_silu_forward<float>(x, 1, 3, out, norms);
  tape::ops::normalized_silu_backward<float>(x, out, norms, w, 1, 3, once);
  tape::ops::normalized_silu_backward<float>(x, out, norms, w, 1, 3, twice);
  tape::ops::normalized_silu_backward<float>(x, out, norms, w, 1, 3, twice);
  for (std::size_t i = 0; i < 3; ++i) CHECK(twice[i] == doctest::Approx(2 * once[i]));
}

TEST_CASE("nl_normalized_silu: traced op records one CustomOp whose VJP matches fp64 finite differences") {
  // 3 rows keep their norms inside the record, 6 rows in a saved tape buffer: both paths.
  for (const std::size_t rows : {std::size_t{3}, std::size_t{6}}) {
    CAPTURE(rows);
    const auto x = tapetest::random_vector(rows * kCols, -3, 3, 51);
    const auto w = tapetest::random_vector(rows * kCols, -1, 1, 52);
    const auto r = tapetest::run_on_tape([](auto in) { return tape::ops::normalized_silu(in[0]); },
                                         {cast_vector<float>(x)}, tape::Shape{rows, kCols}, cast_vector<float>(w));
    CHECK(r.records == 1);
    CHECK(r.traced_out == r.untraced_out);
    // FD on the fp32-rounded inputs, so only the VJP's own rounding is measured.
    const std::vector<float> x_f = cast_vector<float>(x), w_f = cast_vector<float>(w);
    const std::vector<double> x32(x_f.begin(), x_f.end()), w32(w_f.begin(), w_f.end());
    const auto f = [rows](const std::vector<double>& v) { return forward64(v, rows, kCols); };
    const auto m = tapetest::compare_gradients(r.grads.at(0), tapetest::fd_gradient(f, x32, w32), 1e-4);
    INFO("worst entry " << m.index << ": tape " << m.analytic << " vs fd " << m.numeric);
    CHECK(m.worst < 1e-4);
  }
}
