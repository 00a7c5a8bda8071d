#include "hybrid/memory/byte_shuffle.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace hybrid {

namespace {
// Blocks keep the working set in L1/L2 while writing w output planes.
constexpr std::size_t kBlockElems = 4096;
}  // namespace

void byte_shuffle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::uint32_t element_size) {
  assert(in.size() == out.size() && element_size >= 1);
  const std::size_t w = element_size;
  const std::size_t n = in.size() / w;
  const std::uint8_t* src = in.data();
  std::uint8_t* dst = out.data();
  for (std::size_t b = 0; b < n; b += kBlockElems) {
    const std::size_t e = std::min(n, b + kBlockElems);
    for (std::size_t k = 0; k < w; ++k) {
      std::uint8_t* plane = dst + k * n;
      for (std::size_t i = b; i < e; ++i) plane[i] = src[i * w + k];
    }
  }
  if (n * w < in.size()) std::memcpy(dst + n * w, src + n * w, in.size() - n * w);
}

void byte_unshuffle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::uint32_t element_size) {
  assert(in.size() == out.size() && element_size >= 1);
  const std::size_t w = element_size;
  const std::size_t n = in.size() / w;
  const std::uint8_t* src = in.data();
  std::uint8_t* dst = out.data();
  for (std::size_t b = 0; b < n; b += kBlockElems) {
    const std::size_t e = std::min(n, b + kBlockElems);
    for (std::size_t k = 0; k < w; ++k) {
      const std::uint8_t* plane = src + k * n;
      for (std::size_t i = b; i < e; ++i) dst[i * w + k] = plane[i];
    }
  }
  if (n * w < in.size()) std::memcpy(dst + n * w, src + n * w, in.size() - n * w);
}

}  // namespace hybrid
