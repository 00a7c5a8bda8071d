#pragma once
// How a typed cache (any struct with visit(f) over its std::vector<float> fields) is handed to an
// opaque block. The tape path keeps the cache object itself (the record's context) and saves one
// tape buffer per field aliasing it: nothing is copied, and the in-place VJP reads the object.
// The seed-signature VJP rebuilds the object from those saved fields. A kernel pair (libgpu)
// packs whatever its backward needs into PackedCache instead (pack_cache / unpack_cache): field
// lengths as two floats each (n / 2^16, n % 2^16, exact in fp32) and the concatenated data.
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

// The number of fields Cache::visit reaches.
template <typename Cache>
[[nodiscard]] std::size_t cache_field_count() {
  Cache probe;
  std::size_t n = 0;
  probe.visit([&](std::vector<float>&) { ++n; });
  return n;
}

// Calls f(field) for each field of `cache`, in visit order.
template <typename Cache, typename F>
void for_each_field(Cache& cache, F&& f) {
  cache.visit([&](std::vector<float>& v) { f(std::span<const float>(v)); });
}

// Rebuilds `cache` from its fields, saved in visit order (copies).
template <typename Cache>
void unpack_fields(std::span<const std::span<const float>> fields, Cache& cache) {
  std::size_t i = 0;
  cache.visit([&](std::vector<float>& v) {
    v.assign(fields[i].begin(), fields[i].end());
    ++i;
  });
}

}  // namespace nl
