#include "common/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/json_input.hpp"

namespace common {

std::string json_child_path(const std::string& parent, std::string_view key) {
  return parent + "/" + json_pointer_token(key);
}

std::string json_child_path(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

namespace {

// What the reader's templates ask of a node, for nlohmann's trees and for JsonView alike (the
// trees' own members, with their meaning: an unsigned number is an integer too).
template <class Json>
bool is_unsigned(const Json& n) {
  return n.is_number_unsigned();
}
bool is_unsigned(JsonView n) { return n.type() == JsonType::number_unsigned; }
template <class Json>
bool is_integer(const Json& n) {
  return n.is_number_integer();
}
bool is_integer(JsonView n) { return n.type() == JsonType::number_integer || n.type() == JsonType::number_unsigned; }
template <class Json>
double as_double(const Json& n) {
  return n.template get<double>();
}
double as_double(JsonView n) { return n.number(); }
template <class Json>
std::uint64_t as_unsigned(const Json& n) {
  return n.template get<std::uint64_t>();
}
std::uint64_t as_unsigned(JsonView n) { return n.unsigned_integer(); }
template <class Json>
std::int64_t as_signed(const Json& n) {
  return n.template get<std::int64_t>();
}
std::int64_t as_signed(JsonView n) {
  return n.type() == JsonType::number_unsigned ? static_cast<std::int64_t>(n.unsigned_integer()) : n.integer();
}
template <class Json>
bool as_bool(const Json& n) {
  return n.template get<bool>();
}
bool as_bool(JsonView n) { return n.boolean(); }
template <class Json>
std::string_view as_string(const Json& n) {
  return n.template get_ref<const std::string&>();
}
std::string_view as_string(JsonView n) { return n.string(); }
template <class Json>
std::string type_name(const Json& n) {
  return n.type_name();
}
std::string type_name(JsonView n) {
  switch (n.type()) {
    case JsonType::null: return "null";
    case JsonType::boolean: return "boolean";
    case JsonType::string: return "string";
    case JsonType::array: return "array";
    case JsonType::object: return "object";
    default: return "number";
  }
}
template <class Json>
std::string dumped_excerpt(const Json& n) {
  return excerpt(n.dump());
}
std::string dumped_excerpt(JsonView n) { return dump_excerpt(n, kMaxQuotedInputBytes); }
template <class Json>
bool has_key(const Json& n, std::string_view key) {
  return n.contains(key);
}
bool has_key(JsonView n, std::string_view key) { return find_member(n, key).has_value(); }
// The first key of an object not in `allowed`.
template <class Json>
std::optional<std::string> unknown_key(const Json& n, const std::vector<std::string_view>& allowed) {
  for (const auto& [key, value] : n.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) return key;
  }
  return std::nullopt;
}
std::optional<std::string> unknown_key(JsonView n, const std::vector<std::string_view>& allowed) {
  const auto range = n.members();
  for (auto it = range.begin(); it != range.end(); ++it) {
    const std::string_view key = it.key().string();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) return std::string(key);
  }
  return std::nullopt;
}

}  // namespace

Error JsonReader::error(const std::string& path, std::string message) const {
  return Error::malformed(std::move(message), Location{file_, line_, path.empty() ? "/" : path});
}

template <class Json>
std::string JsonReader::got(const Json& node) const {
  return dialect_ == Dialect::quoting ? dumped_excerpt(node) : type_name(node);
}

bool is_identifier(std::string_view s) noexcept {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (s.empty() || !alpha(s[0])) return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (!alpha(s[i]) && !digit(s[i]) && s[i] != '_') return false;
  }
  return true;
}

template <class Json>
Status JsonReader::check_object(const Json& node, const std::string& path,
                                std::initializer_list<std::string_view> allowed,
                                std::initializer_list<std::string_view> required) const {
  if (auto s = object(node, path); !s) return s;
  if (const auto key = unknown_key(node, std::vector<std::string_view>(allowed))) {
    if (dialect_ == Dialect::terse) return error(json_child_path(path, *key), "unknown key '" + *key + "'");
    std::string keys;
    for (const std::string_view a : allowed) keys += (keys.empty() ? "" : ", ") + std::string(a);
    return error(json_child_path(path, *key), "unknown key; expected one of " + keys);
  }
  for (const std::string_view key : required) {
    if (!has_key(node, key)) return error(path, "missing required key '" + std::string(key) + "'");
  }
  return {};
}

template <class Json>
Result<double> JsonReader::finite_number(const Json& node, const std::string& path) const {
  if (!node.is_number()) return error(path, "expected a number, got " + got(node));
  const double v = as_double(node);
  if (!std::isfinite(v)) return error(path, "expected a finite number");
  return v;
}

template <class Json>
Result<double> JsonReader::unit_interval(const Json& node, const std::string& path) const {
  auto v = finite_number(node, path);
  if (!v) return v;
  if (!(*v >= 0.0 && *v <= 1.0)) return error(path, "expected a number in [0, 1], got " + got(node));
  return v;
}

template <class Json>
Result<std::int64_t> JsonReader::integer(const Json& node, const std::string& path, std::int64_t min,
                                         std::int64_t max) const {
  if (!node.is_number()) return error(path, "expected an integer, got " + got(node));
  std::int64_t v = 0;
  if (is_unsigned(node)) {
    const auto u = as_unsigned(node);
    if (u > static_cast<std::uint64_t>(max)) {
      return error(path, "integer " + std::to_string(u) + " is above the maximum " + std::to_string(max));
    }
    v = static_cast<std::int64_t>(u);
  } else if (is_integer(node)) {
    v = as_signed(node);
  } else {
    const double d = as_double(node);
    if (!std::isfinite(d) || std::floor(d) != d) return error(path, "expected an integer, got a fraction");
    if (d < static_cast<double>(min) || d > static_cast<double>(max)) {
      return error(path, "integer is outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    v = static_cast<std::int64_t>(d);
  }
  if (v < min || v > max) {
    return error(path, "integer " + std::to_string(v) + " is outside [" + std::to_string(min) + ", " +
                           std::to_string(max) + "]");
  }
  return v;
}

template <class Json>
Result<std::uint64_t> JsonReader::unsigned_integer(const Json& node, const std::string& path) const {
  if (is_unsigned(node)) return as_unsigned(node);
  return error(path, "expected a non-negative integer, got " + got(node));
}

template <class Json>
Result<std::int64_t> JsonReader::signed_integer(const Json& node, const std::string& path) const {
  const bool fits = is_integer(node) && !(is_unsigned(node) && as_unsigned(node) > INT64_MAX);
  if (fits) return as_signed(node);
  return error(path, "expected an integer, got " + got(node));
}

template <class Json>
Result<std::string> JsonReader::string(const Json& node, const std::string& path, std::size_t max_length) const {
  if (!node.is_string()) return error(path, "expected a string, got " + got(node));
  const std::string_view s = as_string(node);
  if (s.size() > max_length) {
    return error(path, "string is " + std::to_string(s.size()) + " bytes, above the limit of " +
                           std::to_string(max_length));
  }
  return std::string(s);
}

template <class Json>
Result<bool> JsonReader::boolean(const Json& node, const std::string& path) const {
  if (node.is_boolean()) return as_bool(node);
  // atenia's messages have always said it this way; its tests pin them.
  return error(path, (dialect_ == Dialect::quoting ? "expected true or false, got " : "expected a boolean, got ") +
                         got(node));
}

template <class Json>
Result<std::string> JsonReader::identifier(const Json& node, const std::string& path, std::size_t max_length) const {
  auto s = string(node, path, max_length);
  if (!s) return s.error();
  const std::string& id = *s;
  if (!is_identifier(id)) return error(path, "'" + id + "' is not an identifier (expected ^[a-zA-Z][a-zA-Z0-9_]*$)");
  return s;
}

template <class Json>
Result<std::vector<std::string>> JsonReader::identifier_array(const Json& node, const std::string& path,
                                                              std::size_t min_items, std::size_t max_items,
                                                              std::size_t max_length) const {
  if (auto s = array(node, path); !s) return s.error();
  if (node.size() < min_items || node.size() > max_items) {
    return error(path, "array has " + std::to_string(node.size()) + " items; expected " + std::to_string(min_items) +
                           ".." + std::to_string(max_items));
  }
  std::vector<std::string> out;
  out.reserve(node.size());
  std::size_t i = 0;
  for (const auto& e : elements_of(node)) {
    auto id = identifier(e, json_child_path(path, i++), max_length);
    if (!id) return id.error();
    out.push_back(std::move(*id));
  }
  return out;
}

template <class Json>
Result<std::size_t> JsonReader::one_of(const Json& node, const std::string& path,
                                       std::initializer_list<std::string_view> choices) const {
  if (node.is_string()) {
    const std::string_view s = as_string(node);
    std::size_t i = 0;
    for (const auto c : choices) {
      if (s == c) return i;
      ++i;
    }
  }
  // The list is spelled only for the error: this runs for every parameter of a topology.
  std::string list;
  for (const auto c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
  if (!node.is_string()) return error(path, "expected one of " + list + "; got " + got(node));
  return error(path, "expected one of " + list + "; got '" + excerpt(as_string(node)) + "'");
}

template <class Json>
Status JsonReader::array(const Json& node, const std::string& path) const {
  if (node.is_array()) return {};
  return error(path, "expected an array, got " + type_name(node));
}

template <class Json>
Status JsonReader::object(const Json& node, const std::string& path) const {
  if (node.is_object()) return {};
  return error(path, "expected an object, got " + type_name(node));
}

#define COMMON_JSON_READER_INSTANTIATE(Json)                                                                      \
  template std::string JsonReader::got(const Json&) const;                                                       \
  template Status JsonReader::check_object(const Json&, const std::string&,                                      \
                                           std::initializer_list<std::string_view>,                              \
                                           std::initializer_list<std::string_view>) const;                       \
  template Result<double> JsonReader::finite_number(const Json&, const std::string&) const;                      \
  template Result<double> JsonReader::unit_interval(const Json&, const std::string&) const;                      \
  template Result<std::int64_t> JsonReader::integer(const Json&, const std::string&, std::int64_t, std::int64_t)  \
      const;                                                                                                     \
  template Result<std::uint64_t> JsonReader::unsigned_integer(const Json&, const std::string&) const;            \
  template Result<std::int64_t> JsonReader::signed_integer(const Json&, const std::string&) const;               \
  template Result<std::string> JsonReader::string(const Json&, const std::string&, std::size_t) const;           \
  template Result<bool> JsonReader::boolean(const Json&, const std::string&) const;                              \
  template Result<std::string> JsonReader::identifier(const Json&, const std::string&, std::size_t) const;       \
  template Result<std::vector<std::string>> JsonReader::identifier_array(const Json&, const std::string&,        \
                                                                          std::size_t, std::size_t, std::size_t) \
      const;                                                                                                     \
  template Result<std::size_t> JsonReader::one_of(const Json&, const std::string&,                               \
                                                  std::initializer_list<std::string_view>) const;                \
  template Status JsonReader::array(const Json&, const std::string&) const;                                      \
  template Status JsonReader::object(const Json&, const std::string&) const;

COMMON_JSON_READER_INSTANTIATE(nlohmann::json)
COMMON_JSON_READER_INSTANTIATE(nlohmann::ordered_json)
COMMON_JSON_READER_INSTANTIATE(JsonView)
#undef COMMON_JSON_READER_INSTANTIATE

// --- JsonFields ---

template <class Node>
BasicJsonFields<Node>::BasicJsonFields(const Node& obj, std::string f, std::int64_t l, std::string p)
    : file(std::move(f)), line(l), path(std::move(p)), obj_([&obj]() -> Ref {
        if constexpr (std::is_same_v<Node, JsonView>) {
          return obj;
        } else {
          return &obj;
        }
      }()) {}

template <class Node>
std::string BasicJsonFields<Node>::pointer(const std::string& key) const {
  return json_child_path(path, key);
}

template <class Node>
Error BasicJsonFields<Node>::error(const std::string& key, const std::string& msg) const {
  return reader().error(key.empty() ? path : pointer(key), msg);
}

template <class Node>
Status BasicJsonFields<Node>::only(std::initializer_list<const char*> allowed) const {
  // At most a handful of allowed keys: a list is as fast as a set here.
  std::vector<std::string_view> keys(allowed.begin(), allowed.end());
  if (auto s = reader().object(node(obj_), path); !s) return s;
  if (const auto k = unknown_key(node(obj_), keys)) {
    std::string list;
    for (const std::string_view a : keys) list += (list.empty() ? "" : ", ") + std::string(a);
    return error(*k, "unknown key; expected one of " + list);
  }
  return {};
}

template <class Node>
bool BasicJsonFields<Node>::has(const char* key) const {
  return node(obj_).is_object() && has_key(node(obj_), key);
}

template <class Node>
Result<typename BasicJsonFields<Node>::Ref> BasicJsonFields<Node>::get(const char* key) const {
  if (!has(key)) return error("", std::string("missing required key '") + key + "'");
  if constexpr (std::is_same_v<Node, JsonView>) {
    return *obj_.find(key);
  } else {
    return &obj_->at(key);
  }
}

template <class Node>
Result<bool> BasicJsonFields<Node>::boolean(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().boolean(node(*v), pointer(key));
}

template <class Node>
Result<std::uint64_t> BasicJsonFields<Node>::unsigned_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().unsigned_integer(node(*v), pointer(key));
}

template <class Node>
Result<std::int64_t> BasicJsonFields<Node>::signed_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().signed_integer(node(*v), pointer(key));
}

template <class Node>
Result<double> BasicJsonFields<Node>::number(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().finite_number(node(*v), pointer(key));
}

template <class Node>
Result<float> BasicJsonFields<Node>::unit_float(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  auto n = reader().unit_interval(node(*v), pointer(key));
  if (!n) return n.error();
  return static_cast<float>(*n);
}

template <class Node>
Result<std::string> BasicJsonFields<Node>::string(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().string(node(*v), pointer(key));
}

template <class Node>
Result<typename BasicJsonFields<Node>::Ref> BasicJsonFields<Node>::array(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (auto s = reader().array(node(*v), pointer(key)); !s) return s.error();
  return *v;
}

template <class Node>
Result<typename BasicJsonFields<Node>::Ref> BasicJsonFields<Node>::object(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (auto s = reader().object(node(*v), pointer(key)); !s) return s.error();
  return *v;
}

template class BasicJsonFields<nlohmann::ordered_json>;
template class BasicJsonFields<JsonView>;

}  // namespace common
