#pragma once
// A typed rule cache to and from the type-erased field list of LevelForward (visit order).
#include <vector>

namespace nl {

template <typename T, typename Cache>
[[nodiscard]] std::vector<std::vector<T>> to_fields(Cache& cache) {
  std::vector<std::vector<T>> out;
  cache.visit([&](std::vector<T>& v) { out.push_back(std::move(v)); });
  return out;
}

template <typename T, typename Cache>
void from_fields(const std::vector<std::vector<T>>& fields, Cache& cache) {
  std::size_t i = 0;
  cache.visit([&](std::vector<T>& v) { v = fields[i++]; });
}

// As from_fields, taking the vectors: for a forward result that is not read again (the caches
// are the largest part of it, (s+1)·d² per level, and copying them cost more than the math).
template <typename T, typename Cache>
void take_fields(std::vector<std::vector<T>>& fields, Cache& cache) {
  std::size_t i = 0;
  cache.visit([&](std::vector<T>& v) { v = std::move(fields[i++]); });
}

}  // namespace nl
