#pragma once
// Trellis read (nltrain-math §6.10, §7): rho = S_K q, c = N_{d_c}(rho), y = S_V c, with
// S_K d_c x d and S_V d x d_c. N is the tape's NormalizedSiLU kernel (one row of d_c).
#include <cstddef>
#include <span>
#include <vector>

#include "nl/dense.hpp"
#include "tape/ops/nl_normalized_silu.hpp"

namespace nl::trellis {

// Per-token read cache: rho (d_c), c (d_c), ||silu(rho)|| (1).
inline constexpr std::size_t read_cache_size(std::size_t d_c) { return 2 * d_c + 1; }

// c = N_{d_c}(rho); returns ||silu(rho)|| (the VJP needs it).
template <typename T>
inline T normalized_silu(const T* rho, std::size_t d_c, T* c) {
  T norm = 0;
  tape::ops::normalized_silu_forward<T>(std::span<const T>(rho, d_c), 1, d_c, std::span<T>(c, d_c),
                                        std::span<T>(&norm, 1));
  return norm;
}

// g_rho += N'^T g_c
template <typename T>
inline void normalized_silu_backward(const T* rho, const T* c, T norm, const T* g_c, std::size_t d_c, T* g_rho) {
  tape::ops::normalized_silu_backward<T>(std::span<const T>(rho, d_c), std::span<const T>(c, d_c),
                                         std::span<const T>(&norm, 1), std::span<const T>(g_c, d_c), 1, d_c,
                                         std::span<T>(g_rho, d_c));
}

// Writes the read cache `rc` (read_cache_size) and y (d).
template <typename T>
inline void read(const T* sk, const T* sv, std::size_t d_c, std::size_t d, const T* q, T* rc, T* y) {
  T* rho = rc;
  T* c = rc + d_c;
  dense::matvec(sk, d_c, d, q, rho);
  rc[2 * d_c] = normalized_silu(rho, d_c, c);
  dense::matvec(sv, d, d_c, c, y);
}

// gq += S_K^T N_bwd(S_V^T gy); with gsk/gsv non-null also gS_V += gy c^T, gS_K += g_rho q^T.
template <typename T>
inline void read_backward(const T* sk, const T* sv, std::size_t d_c, std::size_t d, const T* q, const T* rc,
                          const T* gy, T* gsk, T* gsv, T* gq) {
  const T* rho = rc;
  const T* c = rc + d_c;
  std::vector<T> gc(d_c, T(0)), grho(d_c, T(0));
  dense::matvec_t_add(sv, d, d_c, gy, gc.data());
  if (gsv != nullptr) dense::add_outer(gsv, d, d_c, T(1), gy, c);
  normalized_silu_backward(rho, c, rc[2 * d_c], gc.data(), d_c, grho.data());
  if (gsk != nullptr) dense::add_outer(gsk, d_c, d, T(1), grho.data(), q);
  dense::matvec_t_add(sk, d_c, d, grho.data(), gq);
}

}  // namespace nl::trellis
