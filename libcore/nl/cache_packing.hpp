#pragma once
// Packs a typed cache (any struct with visit(f) over std::vector<float> fields) into two flat
// buffers an opaque block can save: the field lengths and the concatenated data. Lengths are
// stored as two floats each (n / 2^16, n % 2^16), exact in fp32 for any realistic size.
#include <cstddef>
#include <span>
#include <vector>

namespace nl {

struct PackedCache {
  std::vector<float> layout;  // 2 floats per field
  std::vector<float> data;
};

template <typename Cache>
[[nodiscard]] PackedCache pack_cache(Cache& cache) {
  PackedCache p;
  std::size_t total = 0;
  cache.visit([&](std::vector<float>& v) { total += v.size(); });
  p.data.reserve(total);
  cache.visit([&](std::vector<float>& v) {
    p.layout.push_back(static_cast<float>(v.size() >> 16));
    p.layout.push_back(static_cast<float>(v.size() & 0xffffu));
    p.data.insert(p.data.end(), v.begin(), v.end());
  });
  return p;
}

template <typename Cache>
void unpack_cache(std::span<const float> layout, std::span<const float> data, Cache& cache) {
  std::size_t field = 0, offset = 0;
  cache.visit([&](std::vector<float>& v) {
    const std::size_t n = (static_cast<std::size_t>(layout[2 * field]) << 16) +
                          static_cast<std::size_t>(layout[2 * field + 1]);
    v.assign(data.begin() + static_cast<std::ptrdiff_t>(offset), data.begin() + static_cast<std::ptrdiff_t>(offset + n));
    offset += n;
    ++field;
  });
}

}  // namespace nl
