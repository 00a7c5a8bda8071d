#pragma once
// The shape of a JsonDocument: all of it but its scalar values. Its containers with their sizes
// and extents, its keys' bytes, each scalar's type (numbers also by how they are stored: a small
// integer in one slot, any other number in two). Two documents of one shape hold their values at
// the same node indices, keys at the same indices with the same bytes; only strings', numbers'
// and booleans' values may differ. A stream's records (one bundle's training steps) mostly share
// one shape, so what a reader learnt of the record before (the validator's walk, schema/
// compiled_schema.cpp) holds for the next as long as it reads no scalar value.
//
//   DocumentShape shape;
//   shape.take(first);                // false: too big to keep (nothing kept)
//   if (shape.matches(second)) ...    // same containers, keys and scalar types
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/json_document.hpp"

namespace common {

class DocumentShape {
 public:
  // Larger documents are not kept: a shape costs 16 bytes a slot and its keys' bytes.
  static constexpr std::size_t kMaxNodes = std::size_t{1} << 16;
  static constexpr std::size_t kMaxKeyBytes = std::size_t{1} << 20;

  // Keeps `doc`'s shape (its whole document, from the root); false and empty when it has more
  // than kMaxNodes slots or kMaxKeyBytes of keys.
  bool take(const JsonDocument& doc);
  // Whether `doc` has the shape kept (never, while none is).
  [[nodiscard]] bool matches(const JsonDocument& doc) const;
  void clear();
  [[nodiscard]] bool empty() const { return words_.empty(); }

 private:
  // Per slot: which bits of the node (its head in the low 32 bits, its offset in the high 32) are
  // of the shape, and what they hold. A container's every bit (its tag, size and end), a number's,
  // a boolean's or null's tag, a string's tag less the bit that says where its bytes are; none of
  // a wide number's value slot.
  struct Word {
    std::uint64_t mask, bits;
  };
  std::vector<Word> words_;
  // The keys' slots, and their bytes one after the other (a key's word holds its length).
  std::vector<std::uint32_t> keys_at_;
  std::string keys_;
};

}  // namespace common
