#pragma once
// LevelParams: the outer-loop parameters of one memory level (nltrain-math §2), and the same
// structure holding their gradients. Flat layout (the opaque block's parameter input):
//   W_K, W_V, W_Q (d x d each), w_alpha, w_theta, w_eta (2d each), b_alpha, b_theta, b_eta,
//   then W_omega (d x 2d) for Atlas only.
#include <cstddef>
#include <span>
#include <vector>

#include "common/result.hpp"

namespace nl {

template <typename T>
struct LevelParams {
  std::vector<T> w_k, w_v, w_q;
  std::vector<T> w_alpha, w_theta, w_eta;
  T b_alpha{}, b_theta{}, b_eta{};
  std::vector<T> w_omega;  // empty unless the rule uses it

  // All zeros, shaped for width d (with W_omega when `omega`): a gradient accumulator.
  [[nodiscard]] static LevelParams zeros(std::size_t d, bool omega);
  [[nodiscard]] static std::size_t flat_size(std::size_t d, bool omega) {
    return 3 * d * d + 6 * d + 3 + (omega ? 2 * d * d : 0);
  }
  [[nodiscard]] std::size_t width() const { return w_alpha.size() / 2; }
  // Every tensor has the size zeros(d, omega) gives it.
  [[nodiscard]] bool fits(std::size_t d, bool omega) const {
    return w_k.size() == d * d && w_v.size() == d * d && w_q.size() == d * d && w_alpha.size() == 2 * d &&
           w_theta.size() == 2 * d && w_eta.size() == 2 * d && w_omega.size() == (omega ? 2 * d * d : 0);
  }
  [[nodiscard]] std::vector<T> to_flat() const;
  void write_flat(std::span<T> out) const;  // out.size() == flat_size
  // Fails (invalid_argument) when flat.size() does not match d and omega.
  [[nodiscard]] static common::Result<LevelParams> from_flat(std::span<const T> flat, std::size_t d, bool omega);
};

extern template struct LevelParams<float>;
extern template struct LevelParams<double>;

}  // namespace nl
