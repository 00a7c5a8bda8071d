#include "common/json_object_index.hpp"

#include <functional>
#include <string_view>

namespace common {
namespace {

std::size_t hash_key(std::string_view key) { return std::hash<std::string_view>{}(key); }

}  // namespace

nlohmann::ordered_json* JsonObjectIndex::slot(Entries& entries, std::string&& key) {
  if (entries.size() < kIndexFromKeys) {
    for (auto& entry : entries) {
      ++compares_;
      if (entry.first == key) return &entry.second;
    }
    entries.emplace_back(std::move(key), nullptr);
    return &entries.back().second;
  }
  if (slots_.empty()) rebuild(entries, 4 * kIndexFromKeys);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
    const std::size_t s = slots_[i];
    if (s == 0) {
      entries.emplace_back(std::move(key), nullptr);
      slots_[i] = entries.size();
      // Load factor at most 1/2: expected probes stay constant.
      if (2 * entries.size() > slots_.size()) rebuild(entries, 2 * slots_.size());
      return &entries.back().second;
    }
    ++compares_;
    if (entries[s - 1].first == key) return &entries[s - 1].second;
  }
}

void JsonObjectIndex::rebuild(const Entries& entries, std::size_t capacity) {
  while (capacity < 2 * entries.size()) capacity *= 2;
  slots_.assign(capacity, 0);
  const std::size_t mask = capacity - 1;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    std::size_t i = hash_key(entries[k].first) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = k + 1;
  }
}

}  // namespace common
