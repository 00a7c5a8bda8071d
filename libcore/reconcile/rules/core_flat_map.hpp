#pragma once
// A string_view-keyed open-addressing hash map: one allocation, no per-entry nodes. The rules key
// receipt maps (parameters, units, paths) by views into the receipt, which outlives the map.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace reconcile::rules::core {

template <class T>
class FlatStringMap {
 public:
  FlatStringMap() = default;
  explicit FlatStringMap(std::size_t expected) { reserve(expected); }

  void reserve(std::size_t expected) {
    std::size_t cap = 8;
    while (cap < expected * 2) cap *= 2;
    if (cap > slots_.size()) rehash(cap);
  }

  // Map.set: the last value for a key wins.
  void set(std::string_view key, T value) { *slot_for(key) = std::move(value); }
  // The first value for a key stays.
  void set_if_absent(std::string_view key, T value) {
    const std::size_t before = size_;
    T* slot = slot_for(key);
    if (size_ != before) *slot = std::move(value);
  }
  [[nodiscard]] const T* find(std::string_view key) const noexcept {
    if (slots_.empty()) return nullptr;
    const std::uint64_t h = hash(key);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == h && s.key == key) return &s.value;
    }
  }
  [[nodiscard]] bool contains(std::string_view key) const noexcept { return find(key) != nullptr; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

 private:
  struct Slot {
    std::string_view key;
    std::uint64_t hash = 0;
    T value{};
    bool used = false;
  };

  static std::uint64_t hash(std::string_view key) noexcept {
    const std::uint64_t h = std::hash<std::string_view>{}(key);
    return h ^ (h >> 29);
  }

  T* slot_for(std::string_view key) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 8 : slots_.size() * 2);
    const std::uint64_t h = hash(key);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.key = key;
        s.hash = h;
        ++size_;
        return &s.value;
      }
      if (s.hash == h && s.key == key) return &s.value;
    }
  }

  void rehash(std::size_t cap) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(cap, Slot{});
    const std::size_t mask = cap - 1;
    for (Slot& s : old) {
      if (!s.used) continue;
      std::size_t i = static_cast<std::size_t>(s.hash) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace reconcile::rules::core
