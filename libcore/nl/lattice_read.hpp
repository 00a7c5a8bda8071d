#pragma once
// Lattice read (nltrain-math §6.9, §7): w = softmax(S q) over the m unit slots, y = sum_i w_i S[i].
#include <cmath>
#include <cstddef>
#include <vector>

#include "nl/dense.hpp"

namespace nl::lattice {

// Writes w (m) and y (d).
template <typename T>
inline void read(const T* s, std::size_t m, std::size_t d, const T* q, T* w, T* y) {
  T mx = 0;
  for (std::size_t i = 0; i < m; ++i) {
    w[i] = dense::dot(s + i * d, q, d);
    mx = i == 0 ? w[i] : max(mx, w[i]);  // max(): no branch for the audit scalar to doubt
  }
  T sum = 0;
  for (std::size_t i = 0; i < m; ++i) sum += (w[i] = exp(w[i] - mx));
  if (sum > T(0))
    for (std::size_t i = 0; i < m; ++i) w[i] /= sum;
  for (std::size_t j = 0; j < d; ++j) y[j] = T(0);
  for (std::size_t i = 0; i < m; ++i) dense::axpy(y, w[i], s + i * d, d);
}

// gq += sum_i gr_i S[i]; with gs non-null also gS[i] += w_i gy + gr_i q.
template <typename T>
inline void read_backward(const T* s, std::size_t m, std::size_t d, const T* q, const T* w, const T* gy, T* gs,
                          T* gq) {
  std::vector<T> gw(m);
  T wgw = 0;
  for (std::size_t i = 0; i < m; ++i) {
    gw[i] = dense::dot(s + i * d, gy, d);
    wgw += w[i] * gw[i];
  }
  for (std::size_t i = 0; i < m; ++i) {
    const T gr = w[i] * (gw[i] - wgw);
    dense::axpy(gq, gr, s + i * d, d);
    if (gs != nullptr) {
      dense::axpy(gs + i * d, w[i], gy, d);
      dense::axpy(gs + i * d, gr, q, d);
    }
  }
}

}  // namespace nl::lattice
