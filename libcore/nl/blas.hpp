#pragma once
// C = op(A) op(B) + beta C through CBLAS (row-major), the same call the tape's Matmul VJPs make
// (tape/ops/matmul.cpp). The hand-written backward uses it wherever the tape path does a matmul,
// so both paths sum in the same order and agree to the last bit, not just to fp32 tolerance.
#include <cblas.h>

#include <cstddef>

#include "nl/tracked32.hpp"
#include "tape/tracked_gemm.hpp"

namespace nl::blas {

inline void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const float* a, const float* b,
                 float beta, float* c) {
  if (m == 0 || n == 0 || k == 0) return;
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, ta ? static_cast<int>(m) : static_cast<int>(k), b,
              tb ? static_cast<int>(k) : static_cast<int>(n), beta, c, static_cast<int>(n));
}

inline void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const double* a, const double* b,
                 double beta, double* c) {
  if (m == 0 || n == 0 || k == 0) return;
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0, a, ta ? static_cast<int>(m) : static_cast<int>(k), b,
              tb ? static_cast<int>(k) : static_cast<int>(n), beta, c, static_cast<int>(n));
}

// y = op(A) x + beta y, A is m x n row-major.
inline void gemv(bool ta, std::size_t m, std::size_t n, const float* a, const float* x, float beta, float* y) {
  cblas_sgemv(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n), 1.0f, a,
              static_cast<int>(n), x, 1, beta, y, 1);
}
inline void gemv(bool ta, std::size_t m, std::size_t n, const double* a, const double* x, double beta, double* y) {
  cblas_dgemv(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n), 1.0, a,
              static_cast<int>(n), x, 1, beta, y, 1);
}

// A += alpha u v^T, A is m x n row-major.
inline void ger(std::size_t m, std::size_t n, float alpha, const float* u, const float* v, float* a) {
  cblas_sger(CblasRowMajor, static_cast<int>(m), static_cast<int>(n), alpha, u, 1, v, 1, a, static_cast<int>(n));
}
inline void ger(std::size_t m, std::size_t n, double alpha, const double* u, const double* v, double* a) {
  cblas_dger(CblasRowMajor, static_cast<int>(m), static_cast<int>(n), alpha, u, 1, v, 1, a, static_cast<int>(n));
}

// Way (b)'s audit scalars (bp verify nltrain): the binary64 product and a bound on any A-precision
// evaluation of it, in any summation order (tape/tracked_gemm.cpp). beta is 0 or 1.
template <class A>
inline void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const common::Tracked<A>* a,
                 const common::Tracked<A>* b, common::Tracked<A> beta, common::Tracked<A>* c) {
  tape::tracked_gemm(ta, tb, m, n, k, a, b, beta.v != 0, c);
}
// y = op(A) x + beta y as a one-column product; op(A) is (ta ? n x m : m x n).
template <class A>
inline void gemv(bool ta, std::size_t m, std::size_t n, const common::Tracked<A>* a, const common::Tracked<A>* x,
                 common::Tracked<A> beta, common::Tracked<A>* y) {
  tape::tracked_gemm(ta, false, ta ? n : m, 1, ta ? m : n, a, x, beta.v != 0, y);
}
// a_ij + (alpha u_i) v_j entry by entry: the bound of a two-factor product and one sum holds for
// either association and for a fused multiply-add.
template <class A>
inline void ger(std::size_t m, std::size_t n, common::Tracked<A> alpha, const common::Tracked<A>* u,
                const common::Tracked<A>* v, common::Tracked<A>* a) {
  for (std::size_t i = 0; i < m; ++i) {
    const common::Tracked<A> au = alpha * u[i];
    for (std::size_t j = 0; j < n; ++j) a[i * n + j] += au * v[j];
  }
}

}  // namespace nl::blas
