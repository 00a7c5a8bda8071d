#pragma once
// Shared by the libgpu tests: the comparison against the tape, and how a CUDA-launcher case
// reports that it did not run (ctest marks a case skipped when it prints "SUITE-SKIP: ").
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu/backend.hpp"

namespace gputest {

// rtol 1e-5 per entry; the absolute floor is 1e-5 of the vector's largest entry, for entries
// that cancel to near zero (the kernels sum rows in a different order from the tape's oracle).
inline void require_close(const std::vector<float>& got, const std::vector<float>& want, const std::string& what,
                          double rtol = 1e-5) {
  REQUIRE_MESSAGE(got.size() == want.size(), what << ": " << got.size() << " values, want " << want.size());
  double scale = 0;
  for (float w : want) scale = std::max(scale, std::fabs(static_cast<double>(w)));
  const double atol = rtol * scale;
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i], diff = std::fabs(g - w);
    if (!(diff <= rtol * std::max(std::fabs(g), std::fabs(w)) + atol)) {
      if (bad++ == 0) first = i;
    }
    worst = std::max(worst, diff / (std::max(std::fabs(g), std::fabs(w)) + atol + 1e-30));
  }
  INFO(what << ": worst relative error " << worst << "; first failing entry " << first << " got "
            << (bad ? got[first] : 0.f) << " want " << (bad ? want[first] : 0.f));
  CHECK(bad == 0);
}

// For an ill-conditioned case two correct fp32 implementations that round in different orders
// differ by more than any fixed rtol, so `got` (a kernel pair's fp32 values) is first placed
// against the fp64 truth `exact`: while the reference fp32 path `want` (the tape) is within rtol
// of it (error relative to the entry plus the vector's largest), the case determines its fp32
// result and `got` must be require_close to `want`, as always. Past that, `got` must be no more
// than kEnvelope times as far from `exact` as `want` is (same measure), plus rtol.
// Found on an H200: Moneta d=16 s=9's final state reaches 6.5e8, and the CPU's own fp32 result is
// 9.6e-5 off the fp64 one at an entry where the device's was 2.2e-5 off the CPU's.
inline void require_as_accurate(const std::vector<float>& got, const std::vector<float>& want,
                                const std::vector<double>& exact, const std::string& what, double rtol = 1e-5) {
  constexpr double kEnvelope = 4;
  REQUIRE_MESSAGE(got.size() == exact.size(), what << ": " << got.size() << " values, want " << exact.size());
  REQUIRE(want.size() == exact.size());
  double scale = 0;
  for (double e : exact) scale = std::max(scale, std::fabs(e));
  double ref_error = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ref_error = std::max(ref_error, std::fabs(static_cast<double>(want[i]) - exact[i]) / (std::fabs(exact[i]) + scale + 1e-300));
  }
  if (ref_error <= rtol) {
    require_close(got, want, what, rtol);
    return;
  }
  const double rel = rtol + kEnvelope * ref_error;
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - exact[i]);
    if (!(diff <= rel * (std::fabs(exact[i]) + scale)) && bad++ == 0) first = i;
  }
  INFO(what << ": ill-conditioned: the tape's fp32 result is " << ref_error << " off fp64; tolerance " << rel
            << "; first failing entry " << first << " got " << (bad ? got[first] : 0.f) << " exact " << (bad ? exact[first] : 0.0));
  CHECK(bad == 0);
}

// The CUDA backend, or null after printing why the case is skipped.
inline gpu::Backend* cuda_or_skip(const char* what) {
  const gpu::CudaProbe& probe = gpu::cuda_backend();
  if (probe.backend == nullptr) std::printf("SUITE-SKIP: %s: CUDA launcher not run: %s\n", what, probe.reason.c_str());
  return probe.backend;
}

}  // namespace gputest
