#pragma once
// Linear algebra through CBLAS: Matmul, MatmulTransposeB, Transpose, OuterProduct.
// Matrices are rank-2 row-major; OuterProduct takes two rank-1 vectors.
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

[[nodiscard]] Tensor matmul(const Tensor& a, const Tensor& b);              // [m,k] @ [k,n] -> [m,n]
[[nodiscard]] Tensor matmul_transpose_b(const Tensor& a, const Tensor& b);  // [m,k] @ [n,k]^T -> [m,n]
[[nodiscard]] Tensor transpose(const Tensor& x);                            // [r,c] -> [c,r]
[[nodiscard]] Tensor outer_product(const Tensor& a, const Tensor& b);       // [d1] x [d2] -> [d1,d2]

// out = a @ (transpose_b ? b^T : b), out m x n (sgemm for float, dgemm for double).
template <typename T>
void matmul_forward(std::span<const T> a, std::span<const T> b, std::span<T> out, std::size_t m, std::size_t k,
                    std::size_t n, bool transpose_b);
template <typename T>
void transpose_forward(std::span<const T> x, std::span<T> out, std::size_t rows, std::size_t cols);
template <typename T>
void outer_product_forward(std::span<const T> a, std::span<const T> b, std::span<T> out);

void backward(const MatmulOp& op, Tape& tape);
void backward(const MatmulTransposeBOp& op, Tape& tape);
void backward(const TransposeOp& op, Tape& tape);
void backward(const OuterProductOp& op, Tape& tape);

}  // namespace tape::ops
