#pragma once
// A set of addresses (the nodes of a tree already visited, say), with the one operation such a
// walk needs: insert, telling whether the address is new. Open addressing with linear probing
// in a power-of-two table kept at most half full: an insert is a multiply, a shift and, nearly
// always, one probe, where a node-based std::unordered_set allocates a node and walks a bucket
// list (the importer's differential inserts every claim it compares, hundreds a step).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace common {

class AddressSet {
 public:
  explicit AddressSet(std::size_t expected = 256) { resize(capacity_for(expected)); }

  // True when `p` was not in the set (it is now). nullptr is not an address: never inserted.
  bool insert(const void* p) {
    if (p == nullptr) return false;
    const auto key = reinterpret_cast<std::uintptr_t>(p);
    if (2 * (size_ + 1) > table_.size()) grow();
    if (!place(key)) return false;
    ++size_;
    return true;
  }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  static std::size_t capacity_for(std::size_t expected) {
    std::size_t c = 16;
    while (c < 2 * expected) c *= 2;
    return c;
  }
  void resize(std::size_t capacity) {
    table_.assign(capacity, 0);
    unsigned bits = 0;
    for (std::size_t c = capacity; c > 1; c >>= 1) ++bits;
    shift_ = 64 - bits;
  }
  // Fibonacci hashing: addresses are aligned, so their low bits say little.
  [[nodiscard]] std::size_t slot_of(std::uintptr_t key) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  // False when `key` is there already.
  bool place(std::uintptr_t key) {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask) {
      if (table_[i] == key) return false;
      if (table_[i] == 0) {
        table_[i] = key;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uintptr_t> old = std::move(table_);
    resize(old.size() * 2);
    for (const std::uintptr_t key : old) {
      if (key != 0) place(key);
    }
  }

  std::vector<std::uintptr_t> table_;
  unsigned shift_ = 60;
  std::size_t size_ = 0;
};

}  // namespace common
