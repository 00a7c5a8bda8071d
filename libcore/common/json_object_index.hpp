#pragma once
// Finding a key among the entries of one JSON object being parsed, in O(1) expected time.
//
// nlohmann::ordered_json keeps an object's entries in a vector in insertion order and finds
// a key by scanning it, so inserting n keys one by one costs n^2/2 string compares (80k
// keys: 9 s). The strict reader (json_input.cpp) appends entries through this index instead:
// small objects are still scanned (cheaper than hashing, no allocation), and from
// kIndexFromKeys entries on an open-addressing table of entry positions takes over.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace common {

class JsonObjectIndex {
 public:
  using Entries = nlohmann::ordered_json::object_t::Container;  // the vector under ordered_map
  static constexpr std::size_t kIndexFromKeys = 16;

  // The value slot for `key` in `entries`, which must hold exactly the entries added
  // through this index: the existing entry's value when `key` is already there (the caller
  // overwrites it: the last value wins at the first key's position, as JSON.parse does),
  // else a new null entry appended at the end.
  nlohmann::ordered_json* slot(Entries& entries, std::string&& key);

  // Key comparisons made so far (for tests that count work instead of timing it).
  [[nodiscard]] std::uint64_t compares() const { return compares_; }

 private:
  void rebuild(const Entries& entries, std::size_t capacity);

  std::vector<std::size_t> slots_;  // 0: empty; otherwise 1 + the entry's position
  std::uint64_t compares_ = 0;
};

}  // namespace common
