#pragma once
// Inputs for the codec tests (here and in tests/hybrid/memory): runs for RLE, smooth floats for
// shuffle+zstd.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

#include "hybrid/codec/bytes.hpp"

namespace codec_test {

// 20 runs of lengths 1..300: RLE shrinks it.
inline hybrid::Bytes repeated() {
  hybrid::Bytes b;
  for (int r = 0; r < 20; ++r) {
    b.insert(b.end(), static_cast<std::size_t>(r * 37 % 300 + 1), static_cast<std::uint8_t>(r));
  }
  return b;
}

// n normal floats (seed 42): their high bytes repeat, so shuffling first helps zstd.
inline hybrid::Bytes smooth_floats(std::size_t n) {
  std::mt19937 rng(42);
  std::normal_distribution<float> nd(0.0F, 1.0F);
  hybrid::Bytes b(n * 4);
  for (std::size_t i = 0; i < n; ++i) {
    float v = nd(rng);
    std::memcpy(b.data() + i * 4, &v, 4);
  }
  return b;
}

}  // namespace codec_test
