#pragma once
// The shape of an ordered_json tree, as json_document_shape.hpp's is of a JsonDocument: all of it
// but its strings' and numbers' values. Its containers and their sizes, its keys' bytes, each
// scalar's type (a number's kind of storage: integer, unsigned or float; a boolean's value).
// Taking a shape, and matching one, also lists the tree's places in one order (a value, then for
// an object each key before its value), so that two trees of one shape name each place alike: by
// its position in that list.
//
//   TreeShape shape;
//   std::vector<TreeShape::Place> places;
//   shape.take(first, places);              // false: too big to keep
//   if (shape.matches(second, places)) ...  // places[i] is second's place i
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace common {

class TreeShape {
 public:
  // Larger trees are not kept: a shape costs 8 bytes a place and its keys' bytes.
  static constexpr std::size_t kMaxPlaces = std::size_t{1} << 16;
  static constexpr std::size_t kMaxKeyBytes = std::size_t{1} << 20;

  // A value of the tree, or one of its objects' keys (exactly one is set).
  struct Place {
    const nlohmann::ordered_json* value = nullptr;
    const std::string* key = nullptr;
  };

  // Keeps `tree`'s shape and lists its places; false, and nothing kept, when it has more than
  // kMaxPlaces places or kMaxKeyBytes of keys.
  bool take(const nlohmann::ordered_json& tree, std::vector<Place>& places);
  // Whether `tree` has the shape kept (never, while none is); when it does, its places are listed.
  [[nodiscard]] bool matches(const nlohmann::ordered_json& tree, std::vector<Place>& places) const;
  void clear();
  [[nodiscard]] bool empty() const { return words_.empty(); }

 private:
  struct Take;
  struct Match;
  // Per place: its type (and a container's size, a key's length above the low byte).
  std::vector<std::uint64_t> words_;
  std::string keys_;  // the keys' bytes, one after the other
};

}  // namespace common
