#include "common/json_object_index.hpp"

#include <doctest/doctest.h>

#include <string>

using common::JsonObjectIndex;

TEST_CASE("json_object_index: a million distinct keys cost a bounded number of compares each") {
  // A linear scan per insert (ordered_json's own operator[]) would make n^2/2 = 5e11 compares.
  constexpr std::size_t n = 1'000'000;
  JsonObjectIndex index;
  JsonObjectIndex::Entries entries;
  // Keys appended piece by piece: a literal + a temporary draws GCC 12's false -Wrestrict at -O3.
  const auto key = [](std::size_t i) {
    std::string k = "k";
    k += std::to_string(i);
    return k;
  };
  for (std::size_t i = 0; i < n; ++i) *index.slot(entries, key(i)) = i;
  REQUIRE(entries.size() == n);
  CHECK(index.compares() < 4 * n);
  CHECK(entries.front().first == "k0");
  CHECK(entries.back().first == "k999999");
  // Every key is found again in place, still in bounded work.
  const auto before = index.compares();
  for (std::size_t i = 0; i < n; i += 997) {
    REQUIRE(index.slot(entries, key(i))->get<std::size_t>() == i);
  }
  CHECK(entries.size() == n);
  CHECK(index.compares() - before < 4 * (n / 997 + 1));
}

TEST_CASE("json_object_index: a repeated key returns the first entry's slot, small and large objects") {
  for (std::size_t size : {std::size_t{3}, JsonObjectIndex::kIndexFromKeys - 1, JsonObjectIndex::kIndexFromKeys,
                           std::size_t{1000}}) {
    CAPTURE(size);
    JsonObjectIndex index;
    JsonObjectIndex::Entries entries;
    for (std::size_t i = 0; i < size; ++i) *index.slot(entries, "key" + std::to_string(i)) = i;
    *index.slot(entries, "key1") = "again";
    *index.slot(entries, "new") = true;
    REQUIRE(entries.size() == size + 1);
    CHECK(entries[1].first == "key1");
    CHECK(entries[1].second == "again");
    CHECK(entries.back().first == "new");
  }
}
