#pragma once
// For compiled_schema.cpp alone: what a thread keeps of the last valid instance each schema's walk
// went over, so that the next instance of the same shape (json_document_shape.hpp for a
// JsonDocument, json_tree_shape.hpp for an ordered_json tree) need not be walked. A walk's checks,
// and their order, follow from the instance's shape and the answers of the checks that read its
// values (a string's pattern, a number's bounds, an enum, a const, uniqueItems, "integer" for a
// float); when each of those answers as before, the walk would retrace the last one to the same
// end: valid. A stream's records mostly share one shape (a record of 7 KB: ~100 such checks, most
// of them reading the same value as the record before, against ~600 schema nodes entered).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/same_key.hpp"

namespace common::schema::compiled_nodes {

struct Node;

// A check of the walk that read a value, not only the shape, and what it answered.
struct LeafCheck {
  enum class Kind : std::uint8_t { types, constant, enumeration, number, text, unique };
  Kind kind;
  bool answer;
  std::uint32_t place;  // the value's: a JsonDocument's slot, a tree's place (TreeShape)
  const Node* node;     // the schema node whose keyword it is
};

// The value a check read, when a scalar: a value equal to it gets the same answer without asking
// (a record's enums and patterns mostly read the strings the record before had).
struct LeafRead {
  std::uint64_t bits = 0;            // a number's value (its storage is of the shape)
  std::uint32_t begin = 0, end = 0;  // a string's bytes, in the entry's strings
  enum class Kind : std::uint8_t { other, number, string } kind = Kind::other;
};

template <class Shape>
class ShapeMemo {
 public:
  static constexpr std::size_t kMaxChecks = std::size_t{1} << 16;
  static constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;

  struct Entry {
    std::uint64_t schema = 0;
    Shape shape;
    std::vector<LeafCheck> checks;
    std::vector<LeafRead> reads;  // by check
    std::string strings;

    // Whether `v`, at check k's place of an instance of this shape, holds the value it read.
    template <class V>
    [[nodiscard]] bool same_value(std::size_t k, const V& v) const {
      const LeafRead& r = reads[k];
      switch (r.kind) {
        case LeafRead::Kind::number: return v.number_bits() == r.bits;
        case LeafRead::Kind::string:
          return common::same_key(v.string(), std::string_view(strings).substr(r.begin, r.end - r.begin));
        default: return false;
      }
    }
  };

  [[nodiscard]] const Entry* find(std::uint64_t schema) const { return entry(entries_, schema); }

  // Keeps a walk of `schema` (its instance's shape, and the checks of values it made), in place
  // of the one kept before; `at(place)` is the instance's value there. Checks past kMaxChecks
  // keep nothing.
  template <class At>
  void keep(std::uint64_t schema, Shape&& shape, std::vector<LeafCheck>&& checks, At at) {
    Entry* e = entry(entries_, schema);
    if (e == nullptr) {
      if (entries_.size() >= kMaxEntries) entries_.erase(entries_.begin());
      e = &entries_.emplace_back();
      e->schema = schema;
    }
    e->shape.clear();
    e->checks.clear();
    e->reads.clear();
    e->strings.clear();
    if (checks.size() > kMaxChecks) return;
    e->shape = std::move(shape);
    e->checks = std::move(checks);
    e->reads.resize(e->checks.size());
    for (std::size_t k = 0; k < e->checks.size(); ++k) {
      const auto v = at(e->checks[k].place);
      LeafRead& r = e->reads[k];
      if (v.is_number()) {
        r.kind = LeafRead::Kind::number;
        r.bits = v.number_bits();
      } else if (v.is_string() && e->strings.size() + v.string().size() <= kMaxStringBytes) {
        r.kind = LeafRead::Kind::string;
        r.begin = static_cast<std::uint32_t>(e->strings.size());
        e->strings.append(v.string());
        r.end = static_cast<std::uint32_t>(e->strings.size());
      }
    }
  }

 private:
  template <class Entries>
  static auto entry(Entries& entries, std::uint64_t schema) -> decltype(&entries.front()) {
    for (auto& e : entries) {
      if (e.schema == schema) return &e;
    }
    return nullptr;
  }

  static constexpr std::size_t kMaxEntries = 4;
  std::vector<Entry> entries_;
};

}  // namespace common::schema::compiled_nodes
