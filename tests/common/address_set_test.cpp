#include "common/address_set.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

TEST_CASE("address_set: answers as a std::unordered_set of the same addresses, across its growth") {
  // Addresses with the spacing of real nodes (16-byte aligned, clustered) and scattered ones,
  // each offered several times, interleaved.
  std::vector<char> block(1 << 16);
  std::mt19937_64 rng(7);
  for (std::size_t expected : {1, 16, 300}) {
    common::AddressSet set(expected);
    std::unordered_set<const void*> model;
    for (int round = 0; round < 20000; ++round) {
      const std::size_t at = (rng() % 2 == 0) ? 16 * (rng() % 2000) : rng() % block.size();
      const void* p = block.data() + at;
      INFO("expected " << expected << ", round " << round);
      REQUIRE(set.insert(p) == model.insert(p).second);
      REQUIRE(set.size() == model.size());
    }
    CHECK(model.size() > 2000);  // grew well past its first table
  }
}

TEST_CASE("address_set: nullptr is never a member") {
  common::AddressSet set;
  CHECK_FALSE(set.insert(nullptr));
  CHECK_FALSE(set.insert(nullptr));
  CHECK(set.size() == 0);
  int x = 0;
  CHECK(set.insert(&x));
  CHECK_FALSE(set.insert(&x));
  CHECK(set.size() == 1);
}
