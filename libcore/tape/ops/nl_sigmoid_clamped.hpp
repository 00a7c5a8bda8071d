#pragma once
// The clamped logistic of specs/nltrain-math.md §0, shared by the NL ops that differentiate SiLU:
// exactly 1 at x >= 15 and 0 at x <= -15, so its derivative is exactly 0 there.
#include <cmath>

namespace tape::ops {

template <typename T>
[[nodiscard]] inline T nl_sigmoid(T x) {
  if (x >= T(15)) return T(1);
  if (x <= T(-15)) return T(0);
  return T(1) / (T(1) + std::exp(-x));
}

// d silu / dx = s + x s (1 - s), with s the clamped sigmoid.
template <typename T>
[[nodiscard]] inline T nl_silu_derivative(T x) {
  const T s = nl_sigmoid(x);
  return s + x * s * (T(1) - s);
}

}  // namespace tape::ops
