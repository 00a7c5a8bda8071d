#include "tape/float_pool.hpp"

#include <algorithm>

#include <doctest/doctest.h>

namespace {
constexpr std::size_t kBig = tape::FloatPool::kMinPooledFloats;
}  // namespace

TEST_CASE("float_pool: a given vector of a taken size comes back, small and unasked sizes do not") {
  tape::FloatPool& pool = tape::FloatPool::local();
  pool.clear();
  std::vector<float> a = pool.take(kBig);
  CHECK(a.size() == kBig);
  CHECK(std::all_of(a.begin(), a.end(), [](float v) { return v == 0.0f; }));  // new: zeroed
  a[7] = 42.0f;
  const float* where = a.data();
  pool.give(std::move(a));
  CHECK(pool.pooled_bytes() == kBig * sizeof(float));
  const std::size_t reuses = pool.reuses();
  std::vector<float> b = pool.take(kBig);
  CHECK(b.data() == where);  // the same storage: no allocation, no page faults
  CHECK(b[7] == 42.0f);      // and no fill: the caller writes every element
  CHECK(pool.reuses() == reuses + 1);
  CHECK(pool.pooled_bytes() == 0);
  pool.give(std::vector<float>(kBig - 1));      // small
  pool.give(std::vector<float>(kBig + 12345));  // never asked for
  CHECK(pool.pooled_bytes() == 0);
  pool.clear();
}

TEST_CASE("float_pool: holds at most kMaxPooledBytes per thread") {
  tape::FloatPool& pool = tape::FloatPool::local();
  pool.clear();
  const std::size_t n = tape::FloatPool::kMaxPooledFloats;
  const std::size_t fit = tape::FloatPool::kMaxPooledBytes / (n * sizeof(float));
  std::vector<std::vector<float>> taken;
  for (std::size_t i = 0; i < fit + 2; ++i) taken.push_back(pool.take(n));
  for (auto& v : taken) pool.give(std::move(v));
  CHECK(pool.pooled_bytes() <= tape::FloatPool::kMaxPooledBytes);
  CHECK(pool.pooled_bytes() >= tape::FloatPool::kMaxPooledBytes - n * sizeof(float));
  pool.clear();
  CHECK(pool.pooled_bytes() == 0);
  // Above kMaxPooledFloats malloc keeps the buffer (see the header): taken fresh, freed on give.
  std::vector<float> big = pool.take(n + 1);
  pool.give(std::move(big));
  CHECK(pool.pooled_bytes() == 0);
}

// Reused caches hold the previous step's numbers (here: another step's, then NaN): a rule that
// read an element before writing it would give a different result than on a fresh pool.
