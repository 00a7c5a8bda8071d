#include "hybrid/profiler/probe_cpu_rates.hpp"

#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

namespace hybrid {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kReps = 3;
constexpr int kDim = 512;                          // 2 * 512^3 = 268 MFLOP per product
constexpr std::size_t kCopyBytes = 32u << 20;      // well past the last-level cache of most CPUs

template <typename Fn>
double best_seconds(Fn&& fn) {
  fn();  // warm up: page faults, BLAS thread start-up
  double best = 0;
  for (int i = 0; i < kReps; ++i) {
    const auto t0 = Clock::now();
    fn();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (i == 0 || s < best) best = s;
  }
  return best;
}

// A rate the snapshot reader accepts (finite, 0.001 .. max), else absent.
std::optional<float> rate(double work, double seconds, double max) {
  if (!(seconds > 0)) return std::nullopt;
  const double r = work / seconds;
  if (!std::isfinite(r) || r < 0.001 || r > max) return std::nullopt;
  return static_cast<float>(r);
}

}  // namespace

CpuRates measure_cpu_rates() {
  CpuRates out;
  {
    std::vector<float> a(kDim * kDim), b(kDim * kDim), c(kDim * kDim);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(i % 7) * 0.25F;
      b[i] = static_cast<float>(i % 5) * 0.5F;
    }
    const double s = best_seconds([&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kDim, kDim, kDim, 1.0F, a.data(), kDim, b.data(), kDim,
                  0.0F, c.data(), kDim);
    });
    out.gflops = rate(2.0 * kDim * kDim * kDim / 1e9, s, 1e9);
  }
  {
    std::vector<unsigned char> src(kCopyBytes, 1), dst(kCopyBytes);
    const double s = best_seconds([&] {
      std::memcpy(dst.data(), src.data(), kCopyBytes);
      // Keep the copy observable so it is not elided.
      src[dst[kCopyBytes / 2] & 1] ^= 1;
    });
    out.mem_gb_s = rate(2.0 * static_cast<double>(kCopyBytes) / 1e9, s, 1e6);
  }
  return out;
}

}  // namespace hybrid
