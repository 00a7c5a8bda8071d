#pragma once
// Sliding-window attention (nltrain-math §4): per head h and query i, softmax over keys
// j in [max(0, i-W+1), i] of q_i.k_j / sqrt(h_d), output sum_w P[h,i,w] v_j. The opaque SWA
// block takes Q, K, V (s x d), saves P (heads x s x W) and returns A (s x d).
#include <cstddef>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/tensor.hpp"

namespace nl {

struct SwaShape {
  std::size_t s = 0;       // tokens
  std::size_t d = 0;       // model width
  std::size_t heads = 1;   // d = heads * head_dim
  std::size_t window = 1;  // current token + window-1 previous, 1 <= window <= s
};

// Rejects zero sizes, heads not dividing d, and a window outside [1, s]; names the field.
[[nodiscard]] common::Status validate(const SwaShape& shape);

template <typename T>
struct SwaForward {
  std::vector<T> a;  // s x d
  std::vector<T> p;  // heads x s x window; slots beyond a short window are 0
};

template <typename T>
[[nodiscard]] SwaForward<T> swa_forward(const SwaShape& shape, std::span<const T> q, std::span<const T> k,
                                        std::span<const T> v);

// Adds the adjoints of Q, K, V into gq, gk, gv.
template <typename T>
void swa_backward(const SwaShape& shape, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                  std::span<const T> p, std::span<const T> ga, std::span<T> gq, std::span<T> gk, std::span<T> gv);

[[nodiscard]] std::vector<float> encode_swa_shape(const SwaShape& shape);
[[nodiscard]] SwaShape decode_swa_shape(std::span<const float> data);

// Runs the forward and records one Opaque(SWA) block (plain tensor without a tape). The shape
// must be valid and q, k, v must be s x d; throws tape::TapeError otherwise.
[[nodiscard]] tape::Tensor record_swa(const tape::opaque::OpaqueRegistry& registry, const SwaShape& shape,
                                      const tape::Tensor& q, const tape::Tensor& k, const tape::Tensor& v);

}  // namespace nl
