#include "common/json_tree_shape.hpp"

#include <string_view>

#include "common/same_key.hpp"

namespace common {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::uint64_t kKey = 0xFE;
constexpr std::uint64_t kTrue = 0xFD;  // a boolean's value is of the shape: a check may read it

std::uint64_t word_of(const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::object: return static_cast<std::uint64_t>(ojson::value_t::object) | (std::uint64_t{v.size()} << 8);
    case ojson::value_t::array: return static_cast<std::uint64_t>(ojson::value_t::array) | (std::uint64_t{v.size()} << 8);
    case ojson::value_t::boolean: return v.get<bool>() ? kTrue : static_cast<std::uint64_t>(ojson::value_t::boolean);
    default: return static_cast<std::uint64_t>(v.type());
  }
}

std::uint64_t key_word(const std::string& key) { return kKey | (std::uint64_t{key.size()} << 8); }

}  // namespace

// Pre-order over the tree, writing its shape. Depth is bounded by the reader that made the tree
// (json_input.hpp's nesting limit).
struct TreeShape::Take {
  TreeShape& shape;
  std::vector<Place>& places;

  bool word(std::uint64_t w) {
    if (shape.words_.size() >= kMaxPlaces) return false;
    shape.words_.push_back(w);
    return true;
  }

  bool value(const ojson& v) {
    if (!word(word_of(v))) return false;
    places.push_back({&v, nullptr});
    if (v.is_object()) {
      for (const auto& [k, child] : v.get_ref<const ojson::object_t&>()) {
        if (!word(key_word(k))) return false;
        places.push_back({nullptr, &k});
        shape.keys_.append(k);
        if (shape.keys_.size() > kMaxKeyBytes || !value(child)) return false;
      }
    } else if (v.is_array()) {
      for (const auto& child : v.get_ref<const ojson::array_t&>()) {
        if (!value(child)) return false;
      }
    }
    return true;
  }
};

// The same order, comparing. A container is entered only once its word (its size) is equal, so
// the walk never goes past the shape's last place.
struct TreeShape::Match {
  const std::uint64_t* words;
  const char* key_bytes;
  Place* places;

  bool value(const ojson& v) {
    if (*words++ != word_of(v)) return false;
    *places++ = {&v, nullptr};
    if (v.is_object()) {
      for (const auto& [k, child] : v.get_ref<const ojson::object_t&>()) {
        if (*words++ != key_word(k)) return false;
        *places++ = {nullptr, &k};
        if (!same_key(k, std::string_view(key_bytes, k.size()))) return false;
        key_bytes += k.size();
        if (!value(child)) return false;
      }
    } else if (v.is_array()) {
      for (const auto& child : v.get_ref<const ojson::array_t&>()) {
        if (!value(child)) return false;
      }
    }
    return true;
  }
};

bool TreeShape::take(const ojson& tree, std::vector<Place>& places) {
  clear();
  places.clear();
  Take walk{*this, places};
  if (walk.value(tree)) return true;
  clear();
  return false;
}

bool TreeShape::matches(const ojson& tree, std::vector<Place>& places) const {
  if (empty()) return false;
  places.resize(words_.size());
  Match walk{words_.data(), keys_.data(), places.data()};
  return walk.value(tree);
}

void TreeShape::clear() {
  words_.clear();
  keys_.clear();
}

}  // namespace common
