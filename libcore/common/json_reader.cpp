#include "common/json_reader.hpp"

#include <algorithm>
#include <cmath>

#include "common/json_input.hpp"

namespace common {

std::string json_child_path(const std::string& parent, std::string_view key) {
  return parent + "/" + json_pointer_token(key);
}

std::string json_child_path(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

Error JsonReader::error(const std::string& path, std::string message) const {
  return Error::malformed(std::move(message), Location{file_, line_, path.empty() ? "/" : path});
}

template <class Json>
std::string JsonReader::got(const Json& node) const {
  return dialect_ == Dialect::quoting ? excerpt(node.dump()) : std::string(node.type_name());
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
  for (const auto& [key, value] : node.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (dialect_ == Dialect::terse) return error(json_child_path(path, key), "unknown key '" + key + "'");
    std::string keys;
    for (const std::string_view a : allowed) keys += (keys.empty() ? "" : ", ") + std::string(a);
    return error(json_child_path(path, key), "unknown key; expected one of " + keys);
  }
  for (const std::string_view key : required) {
    if (!node.contains(key)) return error(path, "missing required key '" + std::string(key) + "'");
  }
  return {};
}

template <class Json>
Result<double> JsonReader::finite_number(const Json& node, const std::string& path) const {
  if (!node.is_number()) return error(path, "expected a number, got " + got(node));
  const double v = node.template get<double>();
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
  if (node.is_number_unsigned()) {
    const auto u = node.template get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(max)) {
      return error(path, "integer " + std::to_string(u) + " is above the maximum " + std::to_string(max));
    }
    v = static_cast<std::int64_t>(u);
  } else if (node.is_number_integer()) {
    v = node.template get<std::int64_t>();
  } else {
    const double d = node.template get<double>();
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
  if (node.is_number_unsigned()) return node.template get<std::uint64_t>();
  return error(path, "expected a non-negative integer, got " + got(node));
}

template <class Json>
Result<std::int64_t> JsonReader::signed_integer(const Json& node, const std::string& path) const {
  const bool fits = node.is_number_integer() &&
                    !(node.is_number_unsigned() && node.template get<std::uint64_t>() > INT64_MAX);
  if (fits) return node.template get<std::int64_t>();
  return error(path, "expected an integer, got " + got(node));
}

template <class Json>
Result<std::string> JsonReader::string(const Json& node, const std::string& path, std::size_t max_length) const {
  if (!node.is_string()) return error(path, "expected a string, got " + got(node));
  const auto& s = node.template get_ref<const std::string&>();
  if (s.size() > max_length) {
    return error(path, "string is " + std::to_string(s.size()) + " bytes, above the limit of " +
                           std::to_string(max_length));
  }
  return s;
}

template <class Json>
Result<bool> JsonReader::boolean(const Json& node, const std::string& path) const {
  if (node.is_boolean()) return node.template get<bool>();
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
  for (std::size_t i = 0; i < node.size(); ++i) {
    auto id = identifier(node[i], json_child_path(path, i), max_length);
    if (!id) return id.error();
    out.push_back(std::move(*id));
  }
  return out;
}

template <class Json>
Result<std::size_t> JsonReader::one_of(const Json& node, const std::string& path,
                                       std::initializer_list<std::string_view> choices) const {
  if (node.is_string()) {
    const auto& s = node.template get_ref<const std::string&>();
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
  return error(path, "expected one of " + list + "; got '" + excerpt(node.template get_ref<const std::string&>()) + "'");
}

template <class Json>
Status JsonReader::array(const Json& node, const std::string& path) const {
  if (node.is_array()) return {};
  return error(path, std::string("expected an array, got ") + node.type_name());
}

template <class Json>
Status JsonReader::object(const Json& node, const std::string& path) const {
  if (node.is_object()) return {};
  return error(path, std::string("expected an object, got ") + node.type_name());
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
#undef COMMON_JSON_READER_INSTANTIATE

// --- JsonFields ---

JsonFields::JsonFields(const nlohmann::ordered_json& obj, std::string f, std::int64_t l, std::string p)
    : file(std::move(f)), line(l), path(std::move(p)), obj_(obj) {}

std::string JsonFields::pointer(const std::string& key) const { return json_child_path(path, key); }

Error JsonFields::error(const std::string& key, const std::string& msg) const {
  return reader().error(key.empty() ? path : pointer(key), msg);
}

Status JsonFields::only(std::initializer_list<const char*> allowed) const {
  // At most a handful of allowed keys: a list is as fast as a set here.
  std::vector<std::string_view> keys(allowed.begin(), allowed.end());
  if (auto s = reader().object(obj_, path); !s) return s;
  for (const auto& [k, v] : obj_.items()) {
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    std::string list;
    for (const std::string_view a : keys) list += (list.empty() ? "" : ", ") + std::string(a);
    return error(k, "unknown key; expected one of " + list);
  }
  return {};
}

bool JsonFields::has(const char* key) const { return obj_.is_object() && obj_.contains(key); }

Result<const nlohmann::ordered_json*> JsonFields::get(const char* key) const {
  if (!has(key)) return error("", std::string("missing required key '") + key + "'");
  return &obj_.at(key);
}

Result<bool> JsonFields::boolean(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().boolean(**v, pointer(key));
}

Result<std::uint64_t> JsonFields::unsigned_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().unsigned_integer(**v, pointer(key));
}

Result<std::int64_t> JsonFields::signed_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().signed_integer(**v, pointer(key));
}

Result<double> JsonFields::number(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().finite_number(**v, pointer(key));
}

Result<float> JsonFields::unit_float(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  auto n = reader().unit_interval(**v, pointer(key));
  if (!n) return n.error();
  return static_cast<float>(*n);
}

Result<std::string> JsonFields::string(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  return reader().string(**v, pointer(key));
}

Result<const nlohmann::ordered_json*> JsonFields::array(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (auto s = reader().array(**v, pointer(key)); !s) return s.error();
  return *v;
}

Result<const nlohmann::ordered_json*> JsonFields::object(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (auto s = reader().object(**v, pointer(key)); !s) return s.error();
  return *v;
}

}  // namespace common
