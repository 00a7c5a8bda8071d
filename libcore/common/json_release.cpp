#include "common/json_release.hpp"

#include "common/json_input.hpp"

namespace common {
namespace {

using ojson = nlohmann::ordered_json;

// Empties every container under `v` (within `depth_left` levels); true when all were emptied.
bool empty_children(ojson& v, std::size_t depth_left) noexcept {
  if (depth_left == 0) return false;
  if (v.is_array()) {
    auto& items = v.get_ref<ojson::array_t&>();
    for (auto& e : items) {
      if (e.is_structured() && !empty_children(e, depth_left - 1)) return false;
    }
    items.clear();
  } else if (v.is_object()) {
    auto& members = v.get_ref<ojson::object_t&>();
    for (auto& m : members) {
      if (m.second.is_structured() && !empty_children(m.second, depth_left - 1)) return false;
    }
    members.clear();
  }
  return true;
}

}  // namespace

void release_json(ojson& doc) noexcept {
  (void)empty_children(doc, kMaxJsonNestingDepth + 1);
  doc = nullptr;
}

}  // namespace common
