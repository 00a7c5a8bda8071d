#pragma once
// all_finite: true when no element is NaN or ±Inf. Written on the bit pattern so the loop
// vectorizes without -ffast-math (every op result passes through it).
#include <bit>
#include <cstdint>
#include <span>

namespace tape {

[[nodiscard]] inline bool all_finite(std::span<const float> x) {
  constexpr std::uint32_t kExp = 0x7f800000u;  // exponent all ones <=> NaN or Inf
  // An OR of equality tests: SSE2 has both (an unsigned max has to wait for SSE4.1).
  std::uint32_t bad = 0;
  for (float v : x) bad |= static_cast<std::uint32_t>((std::bit_cast<std::uint32_t>(v) & kExp) == kExp);
  return bad == 0;
}

}  // namespace tape
