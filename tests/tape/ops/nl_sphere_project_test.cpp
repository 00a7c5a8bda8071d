#include "tape/ops/nl_sphere_project.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "tape/ops/fd_check.hpp"
#include "tape/ops/nl_tape_check.hpp"

namespace {

using tapetest::cast_vector;

constexpr std::size_t kSlots = 4;
constexpr std::size_t kDim = 3;

std::vector<double> sphere_forward64(const std::vector<double>& s, std::size_t m, std::size_t d) {
  std::vector<double> out(s.size()), norms(m);
  tape::ops::sphere_project_forward<double>(s, m, d, out, norms);
  return out;
}

template <typename T>
std::vector<T> sphere_vjp(const std::vector<double>& s64, const std::vector<double>& w64, std::size_t m, std::size_t d) {
  const std::vector<T> s = cast_vector<T>(s64), w = cast_vector<T>(w64);
  std::vector<T> out(s.size()), norms(m), ds(s.size(), T(0));
  tape::ops::sphere_project_forward<T>(s, m, d, out, norms);
  tape::ops::sphere_project_backward<T>(out, norms, w, m, d, ds);
  return ds;
}

}  // namespace

TEST_CASE("nl_sphere_project: every slot lands on the unit sphere") {
  const auto s = tapetest::random_vector(kSlots * kDim, -2, 2, 31);
  const auto out = sphere_forward64(s, kSlots, kDim);
  for (std::size_t i = 0; i < kSlots; ++i) {
    double sq = 0;
    for (std::size_t j = 0; j < kDim; ++j) sq += out[i * kDim + j] * out[i * kDim + j];
    CHECK(sq == doctest::Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("nl_sphere_project: fp64 VJP matches fp64 central differences on every entry") {
  const auto s = tapetest::random_vector(kSlots * kDim, -2, 2, 32);
  const auto w = tapetest::random_vector(kSlots * kDim, -1, 1, 33);
  const auto f = [](const std::vector<double>& v) { return sphere_forward64(v, kSlots, kDim); };
  const auto m = tapetest::compare_gradients(sphere_vjp<double>(s, w, kSlots, kDim), tapetest::fd_gradient(f, s, w), 1e-6);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-6);
}

TEST_CASE("nl_sphere_project: fp32 VJP agrees with the fp64 finite differences") {
  const auto s = tapetest::random_vector(kSlots * kDim, -2, 2, 34);
  const auto w = tapetest::random_vector(kSlots * kDim, -1, 1, 35);
  const auto f = [](const std::vector<double>& v) { return sphere_forward64(v, kSlots, kDim); };
  const auto m = tapetest::compare_gradients(sphere_vjp<float>(s, w, kSlots, kDim), tapetest::fd_gradient(f, s, w), 1e-4);
  INFO("worst entry " << m.index << ": analytic " << m.analytic << " vs fd " << m.numeric);
  CHECK(m.worst < 1e-4);
}

TEST_CASE("nl_sphere_project: a degenerate slot (norm <= 1e-8) is kept and its VJP is the identity") {
  const std::vector<double> s = {1e-9, 0.0, -1e-9, 3.0, 4.0, 0.0};
  const auto out = sphere_forward64(s, 2, 3);
  CHECK(out[0] == 1e-9);
  CHECK(out[2] == -1e-9);
  CHECK(out[3] == doctest::Approx(0.6));
  const std::vector<double> w = {0.5, -2.0, 7.0, 1.0, 1.0, 1.0};
  const auto ds = sphere_vjp<double>(s, w, 2, 3);
  CHECK(ds[0] == 0.5);
  CHECK(ds[1] == -2.0);
  CHECK(ds[2] == 7.0);
  // Non-degenerate slot: gradient is orthogonal to the unit vector (0.6, 0.8, 0).
  CHECK(ds[3] * 0.6 + ds[4] * 0.8 == doctest::Approx(0.0).epsilon(1e-12));
}

TEST_CASE("nl_sphere_project: traced op records one CustomOp whose VJP matches fp64 finite differences") {
  // 4 slots keep their norms inside the record, 7 slots in a saved tape buffer: both paths.
  for (const std::size_t slots : {std::size_t{4}, std::size_t{7}}) {
    CAPTURE(slots);
    const auto s = tapetest::random_vector(slots * kDim, -2, 2, 53);
    const auto w = tapetest::random_vector(slots * kDim, -1, 1, 54);
    const auto r = tapetest::run_on_tape([](auto in) { return tape::ops::sphere_project_normalize(in[0]); },
                                         {cast_vector<float>(s)}, tape::Shape{slots, kDim}, cast_vector<float>(w));
    CHECK(r.records == 1);
    CHECK(r.traced_out == r.untraced_out);
    const std::vector<float> s_f = cast_vector<float>(s), w_f = cast_vector<float>(w);
    const std::vector<double> s32(s_f.begin(), s_f.end()), w32(w_f.begin(), w_f.end());
    const auto f = [slots](const std::vector<double>& v) { return sphere_forward64(v, slots, kDim); };
    const auto m = tapetest::compare_gradients(r.grads.at(0), tapetest::fd_gradient(f, s32, w32), 1e-4);
    INFO("worst entry " << m.index << ": tape " << m.analytic << " vs fd " << m.numeric);
    CHECK(m.worst < 1e-4);
  }
}
