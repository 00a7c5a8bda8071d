#include "receipt/topology/json_reader.hpp"

#include <algorithm>
#include <cmath>

#include "receipt/topology/topology_input.hpp"

namespace receipt::topology {

std::string child_path(const std::string& parent, std::string_view key) {
  std::string out = parent;
  out += '/';
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child_path(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

const char* json_type_name(const nlohmann::json& node) {
  switch (node.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "object";
    case nlohmann::json::value_t::array: return "array";
    case nlohmann::json::value_t::string: return "string";
    case nlohmann::json::value_t::boolean: return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "number";
    default: return "other";
  }
}

common::Error JsonReader::error(const std::string& path, std::string message) const {
  return common::Error::malformed(std::move(message), common::Location{file_, 0, path.empty() ? "/" : path});
}

common::Status JsonReader::check_object(const nlohmann::json& node, const std::string& path,
                                        std::initializer_list<std::string_view> allowed,
                                        std::initializer_list<std::string_view> required) const {
  if (!node.is_object()) return error(path, std::string("expected an object, got ") + json_type_name(node));
  for (const auto& [key, value] : node.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return error(child_path(path, key), "unknown key '" + key + "'");
    }
  }
  for (const std::string_view key : required) {
    if (!node.contains(key)) return error(path, "missing required key '" + std::string(key) + "'");
  }
  return {};
}

common::Result<double> JsonReader::finite_number(const nlohmann::json& node, const std::string& path) const {
  if (!node.is_number()) return error(path, std::string("expected a number, got ") + json_type_name(node));
  const double v = node.get<double>();
  if (!std::isfinite(v)) return error(path, "expected a finite number");
  return v;
}

common::Result<std::int64_t> JsonReader::integer(const nlohmann::json& node, const std::string& path,
                                                 std::int64_t min, std::int64_t max) const {
  if (!node.is_number()) return error(path, std::string("expected an integer, got ") + json_type_name(node));
  std::int64_t v = 0;
  if (node.is_number_unsigned()) {
    const auto u = node.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(max)) {
      return error(path, "integer " + std::to_string(u) + " is above the maximum " + std::to_string(max));
    }
    v = static_cast<std::int64_t>(u);
  } else if (node.is_number_integer()) {
    v = node.get<std::int64_t>();
  } else {
    // JSON has one number type: 3.0 is the integer 3 (as JavaScript's Number.isInteger says).
    const double d = node.get<double>();
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

common::Result<std::string> JsonReader::string(const nlohmann::json& node, const std::string& path,
                                               std::size_t max_length) const {
  if (!node.is_string()) return error(path, std::string("expected a string, got ") + json_type_name(node));
  const auto& s = node.get_ref<const std::string&>();
  if (s.size() > max_length) {
    return error(path, "string is " + std::to_string(s.size()) + " bytes, above the limit of " +
                           std::to_string(max_length));
  }
  return s;
}

common::Result<bool> JsonReader::boolean(const nlohmann::json& node, const std::string& path) const {
  if (!node.is_boolean()) return error(path, std::string("expected a boolean, got ") + json_type_name(node));
  return node.get<bool>();
}

common::Result<std::string> JsonReader::identifier(const nlohmann::json& node, const std::string& path) const {
  auto s = string(node, path, kMaxIdLength);
  if (!s) return s.error();
  const std::string& id = *s;
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool ok = !id.empty() && alpha(id[0]);
  for (std::size_t i = 1; ok && i < id.size(); ++i) ok = alpha(id[i]) || digit(id[i]) || id[i] == '_';
  if (!ok) return error(path, "'" + id + "' is not an identifier (expected ^[a-zA-Z][a-zA-Z0-9_]*$)");
  return s;
}

common::Result<std::vector<std::string>> JsonReader::identifier_array(const nlohmann::json& node,
                                                                      const std::string& path,
                                                                      std::size_t min_items,
                                                                      std::size_t max_items) const {
  if (!node.is_array()) return error(path, std::string("expected an array, got ") + json_type_name(node));
  if (node.size() < min_items || node.size() > max_items) {
    return error(path, "array has " + std::to_string(node.size()) + " items; expected " + std::to_string(min_items) +
                           ".." + std::to_string(max_items));
  }
  std::vector<std::string> out;
  out.reserve(node.size());
  for (std::size_t i = 0; i < node.size(); ++i) {
    auto id = identifier(node[i], child_path(path, i));
    if (!id) return id.error();
    out.push_back(std::move(*id));
  }
  return out;
}

common::Result<std::size_t> JsonReader::one_of(const nlohmann::json& node, const std::string& path,
                                               std::initializer_list<std::string_view> choices) const {
  std::string list;
  for (const auto c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
  if (!node.is_string()) {
    return error(path, std::string("expected one of ") + list + "; got " + json_type_name(node));
  }
  const auto& s = node.get_ref<const std::string&>();
  std::size_t i = 0;
  for (const auto c : choices) {
    if (s == c) return i;
    ++i;
  }
  return error(path, "expected one of " + list + "; got '" + s + "'");
}

}  // namespace receipt::topology
