#include "tape/ops/matmul.hpp"

#include <cblas.h>

#include <string>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"
#include "tape/tracked_gemm.hpp"

namespace tape::ops {
namespace {

// CBLAS takes int dimensions; larger matrices would need a different BLAS interface.
int blas_int(const char* op, std::size_t v, const Shape& a, const Shape& b) {
  if (v > static_cast<std::size_t>(INT32_MAX)) throw TapeError(op, "dimension exceeds the BLAS int range", {a, b});
  return static_cast<int>(v);
}

// C (m x n) = alpha * op(A) @ op(B) + beta * C, row-major, all dense.
void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const float* a, const float* b, float beta,
          float* c) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, ta ? static_cast<int>(m) : static_cast<int>(k), b,
              tb ? static_cast<int>(k) : static_cast<int>(n), beta, c, static_cast<int>(n));
}
void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const double* a, const double* b,
          double beta, double* c) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0, a, ta ? static_cast<int>(m) : static_cast<int>(k), b,
              tb ? static_cast<int>(k) : static_cast<int>(n), beta, c, static_cast<int>(n));
}

template <class A>
void gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const common::Tracked<A>* a,
          const common::Tracked<A>* b, common::Tracked<A> beta, common::Tracked<A>* c) {
  tracked_gemm(ta, tb, m, n, k, a, b, beta.v != 0, c);
}

void require_rank(const char* op, const Tensor& t, std::size_t rank, const char* which) {
  if (t.shape().rank() != rank) {
    throw TapeError(op, std::string(which) + " must have rank " + std::to_string(rank), {t.shape()});
  }
}

template <typename Op>
Tensor matmul_impl(const char* name, const Tensor& a, const Tensor& b, bool transpose_b) {
  require_rank(name, a, 2, "A");
  require_rank(name, b, 2, "B");
  const std::size_t m = a.shape().dim(0), k = a.shape().dim(1);
  const std::size_t kb = transpose_b ? b.shape().dim(1) : b.shape().dim(0);
  const std::size_t n = transpose_b ? b.shape().dim(0) : b.shape().dim(1);
  if (k != kb) throw TapeError(name, "inner dimensions differ", {a.shape(), b.shape()});
  blas_int(name, m, a.shape(), b.shape());
  blas_int(name, k, a.shape(), b.shape());
  blas_int(name, n, a.shape(), b.shape());
  Recorder rec(name);
  const BufId ia = rec.input(a);
  const BufId ib = rec.input(b);
  NewBuffer out = rec.output(Shape{m, n});
  matmul_forward<float>(a.data(), b.data(), out.data, m, k, n, transpose_b);
  rec.check_finite(out.data, {a.shape(), b.shape()});
  rec.record(Op{ia, ib, out.tensor.id(), m, k, n});
  return std::move(out.tensor);
}

}  // namespace

template <typename T>
void matmul_forward(std::span<const T> a, std::span<const T> b, std::span<T> out, std::size_t m, std::size_t k,
                    std::size_t n, bool transpose_b) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS leaves C untouched with beta = 0 only by convention: be explicit
    for (T& v : out) v = T(0);
    return;
  }
  gemm(false, transpose_b, m, n, k, a.data(), b.data(), T(0), out.data());
}

template <typename T>
void transpose_forward(std::span<const T> x, std::span<T> out, std::size_t rows, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = x[i * cols + j];
}

template <typename T>
void outer_product_forward(std::span<const T> a, std::span<const T> b, std::span<T> out) {
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < n; ++j) out[i * n + j] = a[i] * b[j];
}

template void matmul_forward<float>(std::span<const float>, std::span<const float>, std::span<float>, std::size_t,
                                    std::size_t, std::size_t, bool);
template void matmul_forward<double>(std::span<const double>, std::span<const double>, std::span<double>,
                                     std::size_t, std::size_t, std::size_t, bool);
template void matmul_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>,
                                     std::size_t, std::size_t, std::size_t, bool);
template void matmul_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>,
                                     std::size_t, std::size_t, std::size_t, bool);
template void transpose_forward<float>(std::span<const float>, std::span<float>, std::size_t, std::size_t);
template void transpose_forward<double>(std::span<const double>, std::span<double>, std::size_t, std::size_t);
template void outer_product_forward<float>(std::span<const float>, std::span<const float>, std::span<float>);
template void outer_product_forward<double>(std::span<const double>, std::span<const double>, std::span<double>);

Tensor matmul(const Tensor& a, const Tensor& b) { return matmul_impl<MatmulOp>("Matmul", a, b, false); }

Tensor matmul_transpose_b(const Tensor& a, const Tensor& b) {
  return matmul_impl<MatmulTransposeBOp>("MatmulTransposeB", a, b, true);
}

Tensor transpose(const Tensor& x) {
  require_rank("Transpose", x, 2, "input");
  const std::size_t rows = x.shape().dim(0), cols = x.shape().dim(1);
  Recorder rec("Transpose");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(Shape{cols, rows});
  transpose_forward<float>(x.data(), out.data, rows, cols);
  rec.record(TransposeOp{ix, out.tensor.id(), rows, cols});  // data movement: cannot create NaN
  return std::move(out.tensor);
}

Tensor outer_product(const Tensor& a, const Tensor& b) {
  require_rank("OuterProduct", a, 1, "a");
  require_rank("OuterProduct", b, 1, "b");
  Recorder rec("OuterProduct");
  const BufId ia = rec.input(a);
  const BufId ib = rec.input(b);
  NewBuffer out = rec.output(Shape{a.numel(), b.numel()});
  outer_product_forward<float>(a.data(), b.data(), out.data);
  rec.check_finite(out.data, {a.shape(), b.shape()});
  rec.record(OuterProductOp{ia, ib, out.tensor.id()});
  return std::move(out.tensor);
}

// d_A += d_out @ B^T ; d_B += A^T @ d_out  (beta = 1 accumulates in place)
void backward(const MatmulOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty() || op.k == 0 || op.m == 0 || op.n == 0) return;
  if (auto da = tape.grad_accumulator(op.a); !da.empty())
    gemm(false, true, op.m, op.k, op.n, g.data(), tape.data(op.b).data(), 1.0f, da.data());
  if (auto db = tape.grad_accumulator(op.b); !db.empty())
    gemm(true, false, op.k, op.n, op.m, tape.data(op.a).data(), g.data(), 1.0f, db.data());
}

// B is n x k. d_A += d_out @ B ; d_B += d_out^T @ A
void backward(const MatmulTransposeBOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty() || op.k == 0 || op.m == 0 || op.n == 0) return;
  if (auto da = tape.grad_accumulator(op.a); !da.empty())
    gemm(false, false, op.m, op.k, op.n, g.data(), tape.data(op.b).data(), 1.0f, da.data());
  if (auto db = tape.grad_accumulator(op.b); !db.empty())
    gemm(true, false, op.n, op.k, op.m, g.data(), tape.data(op.a).data(), 1.0f, db.data());
}

// d_x += d_out^T
void backward(const TransposeOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);  // cols x rows
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  for (std::size_t i = 0; i < op.rows; ++i)
    for (std::size_t j = 0; j < op.cols; ++j) dx[i * op.cols + j] += g[j * op.rows + i];
}

// d_a += d_out @ b ; d_b += d_out^T @ a
void backward(const OuterProductOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  if (g.empty()) return;
  const std::span<const float> a = tape.data(op.a);
  const std::span<const float> b = tape.data(op.b);
  const std::size_t n = b.size();
  if (auto da = tape.grad_accumulator(op.a); !da.empty()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      float s = 0.0f;
      for (std::size_t j = 0; j < n; ++j) s += g[i * n + j] * b[j];
      da[i] += s;
    }
  }
  if (auto db = tape.grad_accumulator(op.b); !db.empty()) {
    for (std::size_t j = 0; j < n; ++j) {
      float s = 0.0f;
      for (std::size_t i = 0; i < a.size(); ++i) s += g[i * n + j] * a[i];
      db[j] += s;
    }
  }
}

}  // namespace tape::ops
