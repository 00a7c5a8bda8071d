#pragma once
// all_finite: true when no element is NaN or ±Inf. Written on the bit pattern so the loop
// vectorizes without -ffast-math (every op result passes through it).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace tape {

namespace detail {
// An OR of equality tests: SSE2 has both (an unsigned max has to wait for SSE4.1).
[[nodiscard]] inline bool all_finite_inline(const float* x, std::size_t n) {
  constexpr std::uint32_t kExp = 0x7f800000u;  // exponent all ones <=> NaN or Inf
  std::uint32_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bad |= static_cast<std::uint32_t>((std::bit_cast<std::uint32_t>(x[i]) & kExp) == kExp);
  }
  return bad == 0;
}
// The same test out of line with an AVX2 clone chosen at load time: twice the lanes for the
// large spans (an opaque block's saved caches hold (s+1) d^2 values).
[[nodiscard]] bool all_finite_wide(const float* x, std::size_t n);
inline constexpr std::size_t kWideFinite = 1024;
}  // namespace detail

[[nodiscard]] inline bool all_finite(std::span<const float> x) {
  return x.size() < detail::kWideFinite ? detail::all_finite_inline(x.data(), x.size())
                                        : detail::all_finite_wide(x.data(), x.size());
}

// The fp64 checks' twin (nl's gradient checks run the same models in double).
[[nodiscard]] inline bool all_finite(std::span<const double> x) {
  constexpr std::uint64_t kExp = 0x7ff0000000000000u;
  std::uint64_t bad = 0;
  for (const double v : x) bad |= static_cast<std::uint64_t>((std::bit_cast<std::uint64_t>(v) & kExp) == kExp);
  return bad == 0;
}

}  // namespace tape
