#include "common/json_document.hpp"

#include <utility>

namespace common {

void JsonDocument::grow() {
  const auto k = static_cast<std::uint32_t>(blocks_.size());
  const std::uint32_t nodes = k < kDoublingBlocks ? 1u << (kFirstBlockBits + k) : 1u << kBigBlockBits;
  blocks_.push_back(std::make_unique_for_overwrite<Node[]>(nodes));
  next_ = blocks_.back().get();
  block_end_ = next_ + nodes;
}

std::optional<JsonView> JsonView::find(std::string_view key) const {
  for (auto it = members().begin(), e = members().end(); it != e; ++it) {
    if (it.key().string() == key) return *it;
  }
  return std::nullopt;
}

nlohmann::ordered_json to_ordered_json(JsonView v) {
  using ojson = nlohmann::ordered_json;
  switch (v.type()) {
    case JsonType::null: return nullptr;
    case JsonType::boolean: return v.boolean();
    case JsonType::number_integer: return static_cast<ojson::number_integer_t>(v.integer());
    case JsonType::number_unsigned: return static_cast<ojson::number_unsigned_t>(v.unsigned_integer());
    case JsonType::number_float: return v.number();
    case JsonType::string: return std::string(v.string());
    case JsonType::array: {
      ojson out(ojson::value_t::array);
      auto& items = out.get_ref<ojson::array_t&>();
      items.reserve(v.size());
      for (JsonView e : v.elements()) items.push_back(to_ordered_json(e));
      return out;
    }
    case JsonType::object: {
      ojson out(ojson::value_t::object);
      // The document holds no duplicate key, so members go straight into the object's vector.
      auto& entries = static_cast<ojson::object_t::Container&>(out.get_ref<ojson::object_t&>());
      entries.reserve(v.size());
      const auto range = v.members();
      for (auto it = range.begin(); it != range.end(); ++it) {
        entries.emplace_back(std::string(it.key().string()), to_ordered_json(*it));
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace common
