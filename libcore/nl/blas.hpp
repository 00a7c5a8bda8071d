#pragma once
// C = op(A) op(B) + beta C through CBLAS (row-major), the same call the tape's Matmul VJPs make
// (tape/ops/matmul.cpp). The hand-written backward uses it wherever the tape path does a matmul,
// so both paths sum in the same order and agree to the last bit, not just to fp32 tolerance.
#include <cblas.h>

#include <cstddef>

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

}  // namespace nl::blas
