#include "hybrid/codec/byte_shuffle.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace hybrid {

namespace {
// Blocks keep the working set in L1/L2 while writing w output planes.
constexpr std::size_t kBlockElems = 4096;

// float32 is the common case: one 4-byte load feeds the four planes.
void shuffle4(const std::uint8_t* src, std::uint8_t* dst, std::size_t n) {
  std::uint8_t* p0 = dst;
  std::uint8_t* p1 = dst + n;
  std::uint8_t* p2 = dst + 2 * n;
  std::uint8_t* p3 = dst + 3 * n;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t v;
    std::memcpy(&v, src + 4 * i, 4);
    p0[i] = static_cast<std::uint8_t>(v);
    p1[i] = static_cast<std::uint8_t>(v >> 8);
    p2[i] = static_cast<std::uint8_t>(v >> 16);
    p3[i] = static_cast<std::uint8_t>(v >> 24);
  }
}

void unshuffle4(const std::uint8_t* src, std::uint8_t* dst, std::size_t n) {
  const std::uint8_t* p0 = src;
  const std::uint8_t* p1 = src + n;
  const std::uint8_t* p2 = src + 2 * n;
  const std::uint8_t* p3 = src + 3 * n;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = static_cast<std::uint32_t>(p0[i]) | (static_cast<std::uint32_t>(p1[i]) << 8) |
                            (static_cast<std::uint32_t>(p2[i]) << 16) | (static_cast<std::uint32_t>(p3[i]) << 24);
    std::memcpy(dst + 4 * i, &v, 4);
  }
}

}  // namespace

void byte_shuffle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::uint32_t element_size) {
  assert(in.size() == out.size() && element_size >= 1);
  const std::size_t w = element_size;
  const std::size_t n = in.size() / w;
  const std::uint8_t* src = in.data();
  std::uint8_t* dst = out.data();
  if (w == 4) {
    shuffle4(src, dst, n);
    if (n * w < in.size()) std::memcpy(dst + n * w, src + n * w, in.size() - n * w);
    return;
  }
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
  if (w == 4) {
    unshuffle4(src, dst, n);
    if (n * w < in.size()) std::memcpy(dst + n * w, src + n * w, in.size() - n * w);
    return;
  }
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
