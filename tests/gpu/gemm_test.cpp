// Backend GEMM (OpenBLAS on the CPU backend, cuBLAS on CUDA) and the hand GemmBody against a
// double-precision reference, for every transpose combination and odd sizes.
#include <random>

#include "gpu/backend.hpp"
#include "gpu_check.hpp"
#include "nl/rule_check.hpp"

namespace {

std::vector<float> reference(const gpu::GemmArgs& g, const std::vector<float>& a, const std::vector<float>& b,
                             const std::vector<float>& c0) {
  std::vector<float> c(g.m * g.n);
  for (std::size_t i = 0; i < g.m; ++i)
    for (std::size_t j = 0; j < g.n; ++j) {
      double acc = 0;
      for (std::size_t p = 0; p < g.k; ++p) {
        acc += static_cast<double>(g.trans_a ? a[p * g.m + i] : a[i * g.k + p]) *
               static_cast<double>(g.trans_b ? b[j * g.k + p] : b[p * g.n + j]);
      }
      c[i * g.n + j] = static_cast<float>(g.alpha * acc + g.beta * c0[i * g.n + j]);
    }
  return c;
}

void check_gemm(gpu::Backend& be, bool hand_body) {
  std::mt19937 rng(5);
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const std::size_t m = 7, n = 13, k = 33;
      const auto a = nltest::cast<float>(nltest::uniform(m * k, 1, rng)), b = nltest::cast<float>(nltest::uniform(k * n, 1, rng)),
                 c0 = nltest::cast<float>(nltest::uniform(m * n, 1, rng));
      gpu::Buffer da(be, a), db(be, b), dc(be, c0);
      const gpu::GemmArgs g{ta, tb, m, n, k, 0.75f, 0.5f, da.get(), db.get(), dc.get()};
      if (hand_body) gpu::launch<gpu::KernelId::gemm>(be, g, m * n);
      else be.gemm(g);
      be.synchronize();
      gputest::require_close(dc.to_host(), reference(g, a, b, c0),
                             std::string(be.name()) + (hand_body ? " GemmBody" : " gemm") + " ta=" + std::to_string(ta) +
                                 " tb=" + std::to_string(tb));
    }
}

}  // namespace

TEST_CASE("gemm: the CPU backend's GEMM and the hand GemmBody equal a double reference") {
  check_gemm(gpu::cpu_backend(), false);
  check_gemm(gpu::cpu_backend(), true);
}

TEST_CASE("gemm: cuBLAS and the hand GemmBody on CUDA equal a double reference") {
  if (gpu::Backend* cuda = gputest::cuda_or_skip("gemm")) {
    check_gemm(*cuda, false);
    check_gemm(*cuda, true);
  }
}
