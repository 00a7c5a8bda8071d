#include "common/json_document_shape.hpp"

#include <cstring>
#include <string_view>

#include "common/same_key.hpp"

namespace common {
namespace {

using Node = JsonDocument::Node;

bool is_container(std::uint32_t tag) { return tag == JsonDocument::kArray || tag == JsonDocument::kObject; }

[[gnu::always_inline]] inline std::uint64_t bits_of(const Node& n) {
  return std::uint64_t{n.head} | (std::uint64_t{n.offset} << 32);
}

// kStringInText (6) and kStringDecoded (7) differ in their tag's lowest bit only.
static_assert((JsonDocument::kStringInText ^ JsonDocument::kStringDecoded) == 1);
constexpr std::uint64_t kTagBits = 0xF;
constexpr std::uint64_t kStringTagBits = 0xE;
constexpr std::uint64_t kKeyHeadBits = 0xFFFFFFFE;

}  // namespace

bool DocumentShape::take(const JsonDocument& doc) {
  clear();
  const std::size_t n = doc.node_count();
  if (n == 0 || n > kMaxNodes) return false;
  words_.resize(n);
  // The containers open at slot i, innermost last: within an object, key and value alternate.
  struct Open {
    std::uint32_t end;
    bool object;
    bool key_next;
  };
  std::vector<Open> open;
  for (std::uint32_t i = 0; i < n;) {
    while (!open.empty() && i == open.back().end) open.pop_back();
    bool is_key = false;
    if (!open.empty() && open.back().object) {
      is_key = open.back().key_next;
      open.back().key_next = !is_key;
    }
    const Node& node = doc.node(i);
    const std::uint32_t tag = node.head & 0xF;
    const bool string = tag == JsonDocument::kStringInText || tag == JsonDocument::kStringDecoded;
    // A key's length too (the head's bits above the tag): its bytes are then compared alone.
    const std::uint64_t mask = is_container(tag) ? ~std::uint64_t{0}
                               : is_key         ? kKeyHeadBits
                               : string         ? kStringTagBits
                                                : kTagBits;
    words_[i] = {mask, bits_of(node) & mask};
    if (is_key) {
      keys_.append(JsonView(&doc, i).string());
      if (keys_.size() > kMaxKeyBytes) {
        clear();
        return false;
      }
      keys_at_.push_back(i);
    }
    if (is_container(tag)) {
      open.push_back({node.offset, tag == JsonDocument::kObject, true});
      ++i;
    } else if (JsonDocument::is_wide_number_tag(tag)) {
      words_[i + 1] = {0, 0};
      i += 2;
    } else {
      ++i;
    }
  }
  return true;
}

bool DocumentShape::matches(const JsonDocument& doc) const {
  const std::size_t n = words_.size();
  if (n == 0 || doc.node_count() != n) return false;
  // Slot by slot, without a branch on what each holds: equal words make equal layouts (each
  // container's size and end, each number's width), so the keys kept are at the same slots.
  // The slots of one block are contiguous: a record's are all in the first.
  std::uint64_t differ = 0;
  for (std::uint32_t i = 0; i < n;) {
    const auto run = doc.run_from(i);
    const Word* want = words_.data() + i;
    for (std::uint32_t k = 0; k < run.count; ++k) {
      std::uint64_t node = 0;
      std::memcpy(&node, run.first + k, sizeof node);
      differ |= (node & want[k].mask) ^ want[k].bits;
    }
    if (differ != 0) return false;
    i += run.count;
  }
  // Keys of equal lengths now: their bytes, wherever the document keeps them.
  const char* kept = keys_.data();
  const std::string_view text = doc.text_view(), decoded = doc.decoded_view();
  for (const std::uint32_t key : keys_at_) {
    const Node& node = doc.node(key);
    const std::string_view& in = (node.head & 0xF) == JsonDocument::kStringDecoded ? decoded : text;
    const std::size_t size = node.head >> 4;
    if (!same_key(std::string_view(in.data() + node.offset, size), std::string_view(kept, size))) return false;
    kept += size;
  }
  return true;
}

void DocumentShape::clear() {
  words_.clear();
  keys_at_.clear();
  keys_.clear();
}

}  // namespace common
