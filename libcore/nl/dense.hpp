#pragma once
// Small dense kernels on row-major raw storage, templated on the scalar so every rule runs in
// fp32 (the tape) and fp64 (the gradient checks) from one source. Per-token vector kernels are
// plain loops (sizes are a few dozen to a few hundred); whole-sequence projections go to BLAS.
// Summation order is fixed either way, which keeps traced and untraced paths bitwise equal.
#include <cstddef>

#include "nl/blas.hpp"

// The per-token loops of the memory rules and SWA get an AVX2 clone chosen at load time (the
// build itself targets baseline x86-64). AVX2 only, no FMA: the lanes do the same IEEE
// operations as the baseline code, so both clones give the same bits. Off under AddressSanitizer
// (the CI build), where an ifunc resolver may run before the sanitizer's runtime is up.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define NL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define NL_VECTOR_CLONES
#endif

namespace nl::dense {

// Matrices at least this large (m * n) go to BLAS (OpenBLAS picks AVX2/AVX-512 kernels at run
// time, which this portable build cannot); below it the call overhead would dominate.
inline constexpr std::size_t kBlasMin = 64 * 64;

// One accumulation chain in index order. (Eight lanes vectorize better, but the order change
// moves results of ill-conditioned cases, e.g. libgpu's Moneta pair test, past their tolerance.)
template <typename T>
[[nodiscard]] inline T dot(const T* a, const T* b, std::size_t n) {
  T acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc += a[i] * b[i];
  return acc;
}

// Eight independent partial sums, combined pairwise: the compiler vectorizes the lanes, which
// one chain cannot be (no -ffast-math). The order is fixed, so both gradient paths (and both
// clones) give the same bits. For well-conditioned sums only (DeltaRule, attention): the
// ill-conditioned MLP rules' libgpu pairs are checked against dot()'s single chain.
template <typename T>
[[nodiscard]] inline T dot8(const T* a, const T* b, std::size_t n) {
  T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (std::size_t l = 0; l < 8; ++l) acc[l] += a[i + l] * b[i + l];
  for (; i < n; ++i) acc[i % 8] += a[i] * b[i];
  return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

// y = A x, A is m x n. Four rows at a time: four independent accumulation chains instead of one
// (each row still sums in index order, so results are those of dot() row by row).
template <typename T>
inline void matvec(const T* a, std::size_t m, std::size_t n, const T* x, T* y) {
  if (m * n >= kBlasMin) return blas::gemv(false, m, n, a, x, T(0), y);
  std::size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const T *r0 = a + i * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (std::size_t j = 0; j < n; ++j) {
      s0 += r0[j] * x[j];
      s1 += r1[j] * x[j];
      s2 += r2[j] * x[j];
      s3 += r3[j] * x[j];
    }
    y[i] = s0, y[i + 1] = s1, y[i + 2] = s2, y[i + 3] = s3;
  }
  for (; i < m; ++i) y[i] = dot(a + i * n, x, n);
}

// y += A^T x, A is m x n (y has n entries).
template <typename T>
inline void matvec_t_add(const T* a, std::size_t m, std::size_t n, const T* x, T* y) {
  if (m * n >= kBlasMin) return blas::gemv(true, m, n, a, x, T(1), y);
  for (std::size_t i = 0; i < m; ++i) {
    const T xi = x[i];
    const T* row = a + i * n;
    for (std::size_t j = 0; j < n; ++j) y[j] += row[j] * xi;
  }
}

// A += scale * u v^T, A is m x n.
template <typename T>
inline void add_outer(T* a, std::size_t m, std::size_t n, T scale, const T* u, const T* v) {
  if (m * n >= kBlasMin) return blas::ger(m, n, scale, u, v, a);
  for (std::size_t i = 0; i < m; ++i) {
    const T su = scale * u[i];
    T* row = a + i * n;
    for (std::size_t j = 0; j < n; ++j) row[j] += su * v[j];
  }
}

// y += scale * x
template <typename T>
inline void axpy(T* y, T scale, const T* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] += scale * x[i];
}

// Y = X W^T for a sequence: X is s x n, W is m x n, Y is s x m. One sgemm/dgemm (the tape's
// MatmulTransposeB forward call), which beats per-token matvecs from d = 8 up.
template <typename T>
inline void project(const T* x, std::size_t s, std::size_t n, const T* w, std::size_t m, T* y) {
  blas::gemm(false, true, s, m, n, x, w, T(0), y);
}

// Backward of project: gW += G^T X and gX += G W (G is s x m), accumulated by BLAS with
// beta = 1 exactly as the tape's MatmulTransposeB VJP does.
template <typename T>
inline void project_backward(const T* x, std::size_t s, std::size_t n, const T* w, std::size_t m, const T* g, T* gw,
                             T* gx) {
  blas::gemm(false, false, s, n, m, g, w, T(1), gx);
  blas::gemm(true, false, m, n, s, g, x, T(1), gw);
}

}  // namespace nl::dense
