#pragma once
// exp / log / pow computed with the fdlibm algorithms (Sun's freely distributable libm), which is
// what V8 (Node) runs for Math.exp / Math.log / Math.pow. glibc rounds differently on roughly one
// argument in ten, and the reference's receipts were made on V8, so the engines use these.
// Each function follows the published fdlibm algorithm and constants step for step; the
// operation order is part of the result.
#include <bit>
#include <cstdint>

namespace receipt::engine::fdlibm {

[[nodiscard]] double exp(double x);
[[nodiscard]] double log(double x);
[[nodiscard]] double pow(double x, double y);

// IEEE-754 word access (fdlibm's GET/SET_HIGH_WORD family).
[[nodiscard]] inline std::int32_t high_word(double x) {
  return static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(x) >> 32);
}
[[nodiscard]] inline std::uint32_t low_word(double x) {
  return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x));
}
[[nodiscard]] inline double from_words(std::int32_t hi, std::uint32_t lo) {
  return std::bit_cast<double>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) | lo);
}
[[nodiscard]] inline double with_high_word(double x, std::int32_t hi) { return from_words(hi, low_word(x)); }
[[nodiscard]] inline double with_low_word(double x, std::uint32_t lo) { return from_words(high_word(x), lo); }

}  // namespace receipt::engine::fdlibm
