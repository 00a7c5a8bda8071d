#pragma once
// The hand GEMM body: C = alpha op(A) op(B) + beta C, row-major, one index per entry of C. The
// CUDA backend uses it only where cuBLAS cannot be loaded; it is the baseline cuBLAS replaces.
#include <cstddef>

#include "gpu/hd.hpp"

namespace gpu {

struct GemmArgs {
  bool trans_a, trans_b;
  std::size_t m, n, k;
  float alpha, beta;
  const float *a, *b;  // op(A) m x k, op(B) k x n, stored row-major as given (transposed when trans_*)
  float* c;            // m x n
};

struct GemmBody {
  using Args = GemmArgs;
  GPU_HD static void run(const Args& g, std::size_t idx) {
    const std::size_t i = idx / g.n, j = idx % g.n;
    float acc = 0.f;
    for (std::size_t p = 0; p < g.k; ++p) {
      const float av = g.trans_a ? g.a[p * g.m + i] : g.a[i * g.k + p];
      const float bv = g.trans_b ? g.b[j * g.k + p] : g.b[p * g.n + j];
      acc += av * bv;
    }
    g.c[idx] = g.alpha * acc + (g.beta == 0.f ? 0.f : g.beta * g.c[idx]);
  }
};

}  // namespace gpu
