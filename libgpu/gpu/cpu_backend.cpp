#include <cblas.h>

#include <cstring>
#include <new>

#include "gpu/backend.hpp"

namespace gpu {
namespace {

// The CPU launcher: the same bodies, one index after another.
class CpuBackend final : public Backend {
 public:
  [[nodiscard]] const char* name() const override { return "cpu"; }
  [[nodiscard]] float* alloc(std::size_t n) override { return allocate<float>(n, "floats"); }
  void release(float* p) noexcept override { delete[] p; }
  void upload(float* dst, const float* src, std::size_t n) override { std::memcpy(dst, src, n * sizeof(float)); }
  void download(float* dst, const float* src, std::size_t n) override { std::memcpy(dst, src, n * sizeof(float)); }
  [[nodiscard]] double* alloc_f64(std::size_t n) override { return allocate<double>(n, "doubles"); }
  void release_f64(double* p) noexcept override { delete[] p; }
  void download_f64(double* dst, const double* src, std::size_t n) override { std::memcpy(dst, src, n * sizeof(double)); }
  void launch(KernelId id, const void* args, std::size_t n) override {
    switch (id) {
#define GPU_CPU_CASE(kid, Body)                                   \
  case KernelId::kid: {                                           \
    const auto& a = *static_cast<const Body::Args*>(args);        \
    for (std::size_t i = 0; i < n; ++i) Body::run(a, i);          \
    return;                                                       \
  }
      GPU_KERNELS(GPU_CPU_CASE)
#undef GPU_CPU_CASE
    }
    throw GpuError("cpu backend: unknown kernel id " + std::to_string(static_cast<int>(id)));
  }
  void launch_phased(PhasedId id, const void* args, std::size_t steps) override {
    switch (id) {
#define GPU_CPU_PHASED_CASE(kid, Body)                                          \
  case PhasedId::kid: {                                                         \
    const auto& a = *static_cast<const Body::Args*>(args);                      \
    for (std::size_t step = 0; step < steps; ++step)                            \
      for (int phase = 0; phase < Body::kPhases; ++phase)                       \
        for (std::size_t i = 0, w = Body::width(a, phase); i < w; ++i) Body::run(a, step, phase, i); \
    return;                                                                     \
  }
      GPU_PHASED_KERNELS(GPU_CPU_PHASED_CASE)
#undef GPU_CPU_PHASED_CASE
    }
    throw GpuError("cpu backend: unknown phased kernel id " + std::to_string(static_cast<int>(id)));
  }
  void gemm(const GemmArgs& g) override {
    if (g.m == 0 || g.n == 0) return;
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    cblas_sgemm(CblasRowMajor, g.trans_a ? CblasTrans : CblasNoTrans, g.trans_b ? CblasTrans : CblasNoTrans, m, n,
                k, g.alpha, g.a, g.trans_a ? m : k, g.b, g.trans_b ? k : n, g.beta, g.c, n);
  }
  void synchronize() override {}

 private:
  template <typename T>
  static T* allocate(std::size_t n, const char* what) {
    auto* p = new (std::nothrow) T[n]();
    if (p == nullptr) throw GpuError("cpu backend: cannot allocate " + std::to_string(n) + " " + what);
    return p;
  }
};

}  // namespace

Backend& cpu_backend() {
  static CpuBackend b;
  return b;
}

}  // namespace gpu
