#pragma once
// nrm(u) of nltrain-math §0: u / max(||u||, 1e-8), and its backward.
#include <cmath>
#include <cstddef>

#include "nl/dense.hpp"

namespace nl {

inline constexpr double kNormEps = 1e-8;

// Writes u_hat (may alias nothing) and returns ||u|| (unclamped; the backward needs it).
template <typename T>
inline T unit_norm_forward(const T* u, std::size_t n, T* u_hat) {
  const T norm = sqrt(dense::dot(u, u, n));
  const T den = max(norm, T(kNormEps));
  for (std::size_t i = 0; i < n; ++i) u_hat[i] = u[i] / den;
  return norm;
}

// g_u += J^T g_hat. At ||u|| < eps the forward is the linear map u / eps.
template <typename T>
inline void unit_norm_backward(const T* u_hat, T norm, const T* g_hat, std::size_t n, T* g_u) {
  if (norm >= T(kNormEps)) {
    const T proj = dense::dot(u_hat, g_hat, n);
    for (std::size_t i = 0; i < n; ++i) g_u[i] += (g_hat[i] - u_hat[i] * proj) / norm;
  } else {
    for (std::size_t i = 0; i < n; ++i) g_u[i] += g_hat[i] / T(kNormEps);
  }
}

}  // namespace nl
