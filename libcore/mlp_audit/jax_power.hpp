#pragma once
// x^k in fp32 the two ways JAX may compute it: lax.integer_pow (square-and-multiply, for a
// concrete integer exponent) or lax.pow; the interval holding both.
#include <algorithm>
#include <cstdint>

#include "mlp_audit/step.hpp"

namespace mlp_audit {

// b^k as lax.integer_pow computes it: square-and-multiply from the lowest bit.
[[nodiscard]] inline T32 integer_pow(T32 base, std::uint64_t k) {
  T32 acc;
  bool first = true;
  while (k > 0) {
    if ((k & 1) != 0) {
      acc = first ? base : acc * base;
      first = false;
    }
    k >>= 1;
    if (k > 0) base = base * base;
  }
  return first ? T32(1) : acc;
}

// The smallest interval holding both.
[[nodiscard]] inline T32 hull(const T32& a, const T32& b) {
  const double lo = std::min(a.v - a.e, b.v - b.e), hi = std::max(a.v + a.e, b.v + b.e);
  return T32::exact((lo + hi) / 2, (hi - lo) / 2);
}

// base^k either way, for base > 0.
[[nodiscard]] inline T32 fp32_power(const T32& base, std::uint64_t k) {
  return hull(integer_pow(base, k), pow(base, T32(static_cast<double>(k))));
}

}  // namespace mlp_audit
