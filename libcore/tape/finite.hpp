#pragma once
// all_finite: true when no element is NaN or ±Inf. Written on the bit pattern so the loop
// vectorizes without -ffast-math (every op result passes through it).
#include <bit>
#include <cstdint>
#include <span>

namespace tape {

[[nodiscard]] inline bool all_finite(std::span<const float> x) {
  constexpr std::uint32_t kExp = 0x7f800000u;  // exponent all ones <=> NaN or Inf
  std::uint32_t worst = 0;
  for (float v : x) {
    const std::uint32_t e = std::bit_cast<std::uint32_t>(v) & kExp;
    worst = e > worst ? e : worst;
  }
  return worst != kExp;
}

}  // namespace tape
