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

// The CUDA backend, or null after printing why the case is skipped.
inline gpu::Backend* cuda_or_skip(const char* what) {
  const gpu::CudaProbe& probe = gpu::cuda_backend();
  if (probe.backend == nullptr) std::printf("SUITE-SKIP: %s: CUDA launcher not run: %s\n", what, probe.reason.c_str());
  return probe.backend;
}

}  // namespace gputest
