#include "reconcile/json_access.hpp"

#include <charconv>
#include <cmath>

#include "common/js_json_text.hpp"

namespace reconcile {

const Json* member(const Json& obj, std::string_view key) noexcept { return obj.find(key); }

std::optional<double> as_number(const Json& v) noexcept {
  if (!v.is_number()) return std::nullopt;
  return v.number();
}

std::optional<double> number_member(const Json& obj, std::string_view key) noexcept {
  return as_number(member(obj, key));
}

std::optional<std::string_view> as_string(const Json* v) noexcept {
  if (!v || !v->is_string()) return std::nullopt;
  return v->string();
}

std::optional<std::string_view> string_member(const Json& obj, std::string_view key) noexcept {
  return as_string(member(obj, key));
}

namespace {

// obj[key] when it is an object (want_object) or an array; for either form of a receipt.
template <class J>
const J* typed_member(const J& obj, std::string_view key, bool want_object) noexcept {
  const J* v = member(obj, key);
  return v && (want_object ? v->is_object() : v->is_array()) ? v : nullptr;
}

}  // namespace

const Json* object_member(const Json& obj, std::string_view key) noexcept { return typed_member(obj, key, true); }
const Json* array_member(const Json& obj, std::string_view key) noexcept { return typed_member(obj, key, false); }

const Tree* member(const Tree& obj, std::string_view key) noexcept {
  if (!obj.is_object()) return nullptr;
  const auto& map = obj.get_ref<const Tree::object_t&>();
  // Scan from the back: with duplicate keys in the text the last one is what JSON.parse keeps.
  for (auto it = map.rbegin(); it != map.rend(); ++it) {
    if (same_key(it->first, key)) return &it->second;
  }
  return nullptr;
}

std::optional<std::vector<double>> numbers_in_order(const Json* map, const std::vector<std::string>& order) {
  if (map == nullptr || !map->is_object() || map->size() != order.size()) return std::nullopt;
  const auto members = map->members();
  // In the topology's order, as every writer of receipts and sidecars puts them: any other order
  // is left to the tree reading, which indexes the map (a lookup here scans, and maps reach 10^4
  // entries).
  const JsonMember* cursor = members.begin();
  std::vector<double> out;
  out.reserve(order.size());
  for (const std::string& key : order) {
    if (cursor == members.end() || !same_key(cursor->first, key)) return std::nullopt;
    const Json& value = (cursor++)->second;
    if (!value.is_number() || !std::isfinite(value.number())) return std::nullopt;
    out.push_back(value.number());
  }
  return out;
}

std::optional<double> as_number(const Tree& v) noexcept {
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

std::optional<double> number_member(const Tree& obj, std::string_view key) noexcept {
  return as_number(member(obj, key));
}

const std::string* as_string(const Tree* v) noexcept {
  return v && v->is_string() ? &v->get_ref<const std::string&>() : nullptr;
}

const std::string* string_member(const Tree& obj, std::string_view key) noexcept {
  return as_string(member(obj, key));
}

const Tree* object_member(const Tree& obj, std::string_view key) noexcept { return typed_member(obj, key, true); }
const Tree* array_member(const Tree& obj, std::string_view key) noexcept { return typed_member(obj, key, false); }

ObjectIndex::ObjectIndex(const Json* obj) {
  if (!obj || !obj->is_object()) return;
  map_.reserve(obj->size());
  for (const JsonMember& m : obj->members()) map_.insert_or_assign(m.first, &m.second);
}

const Json* ObjectIndex::find(std::string_view key) const noexcept {
  const auto it = map_.find(key);
  return it == map_.end() ? nullptr : it->second;
}

namespace {

std::string quoted(std::string_view s) { return Tree(std::string(s)).dump(); }

}  // namespace

PathLookup resolve_path(const Json& root, std::string_view path) {
  const std::string q = quoted(path);
  if (path.empty()) return {std::nullopt, "path is empty or not a string"};
  const Json* cursor = &root;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const std::size_t dot = path.find('.', pos);
    const std::string_view part = path.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    if (part.empty()) return {std::nullopt, "path " + q + " has an empty segment"};
    const std::size_t bracket = part.find('[');
    const std::string_view head = part.substr(0, bracket);
    // A segment is name[digits][digits]...: the name has no brackets, every tail group is [\d+].
    bool well_formed = !head.empty() && head.find(']') == std::string_view::npos;
    std::string_view tail = bracket == std::string_view::npos ? std::string_view{} : part.substr(bracket);
    for (std::size_t i = 0; well_formed && i < tail.size();) {
      const std::size_t close = tail.find(']', i);
      well_formed = tail[i] == '[' && close != std::string_view::npos && close > i + 1;
      for (std::size_t j = i + 1; well_formed && j < close; ++j) well_formed = tail[j] >= '0' && tail[j] <= '9';
      i = well_formed ? close + 1 : tail.size();
    }
    if (!well_formed) return {std::nullopt, "path segment " + quoted(part) + " is malformed"};

    if (!cursor->is_object()) {
      return {std::nullopt, "path " + q + " expected an object at segment " + quoted(head) + " but found " +
                                (cursor->is_array() ? "array" : cursor->is_null() ? "object" : "primitive")};
    }
    const Json* next = member(*cursor, head);
    if (!next) return {std::nullopt, "path " + q + " segment " + quoted(head) + " is missing"};
    cursor = next;
    for (std::size_t i = 0; i < tail.size();) {
      const std::size_t close = tail.find(']', i);
      const std::string_view digits = tail.substr(i + 1, close - i - 1);
      if (!cursor->is_array()) {
        return {std::nullopt, "path " + q + " indexes [" + std::string(digits) +
                                  "] into a non-array at the corresponding segment"};
      }
      std::size_t index = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
      if (ec != std::errc{} || index >= cursor->size()) {
        return {std::nullopt, "path " + q + " index " + std::string(digits) + " is out of bounds (length " +
                                  std::to_string(cursor->size()) + ")"};
      }
      cursor = &(*cursor)[index];
      i = close + 1;
    }
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  if (!cursor->is_number()) {
    const char* kind = cursor->is_string() ? "string" : cursor->is_boolean() ? "boolean" : "object";
    return {std::nullopt, "path " + q + " resolved to " + kind + ", expected a number"};
  }
  const double v = cursor->number();
  if (!std::isfinite(v)) return {std::nullopt, "path " + q + " resolved to a non-finite number (" + js_number(v) + ")"};
  return {v, {}};
}

std::string js_number(double v) { return common::js_string(v); }

}  // namespace reconcile
