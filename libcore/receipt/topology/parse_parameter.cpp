#include "receipt/topology/parse_parameter.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace receipt::topology {
namespace {

constexpr std::array<std::string_view, 5> kKeys = {"id", "role", "from_unit", "to_unit", "applies_to_units"};
constexpr std::array<std::string_view, 4> kRoles = {"input_to_hidden_weight", "hidden_to_output_weight",
                                                    "hidden_bias", "output_bias"};

// What JsonReader::identifier accepts: a string of at most kMaxIdLength bytes that is_identifier.
template <class Json>
const std::string* identifier_of(const Json& node) {
  if (!node.is_string()) return nullptr;
  const auto& s = node.template get_ref<const std::string&>();
  return s.size() <= kMaxIdLength && common::is_identifier(s) ? &s : nullptr;
}

}  // namespace

template <class Json>
common::Result<Parameter> parse_parameter(const common::JsonReader& r, const Json& node, const std::string& path,
                                          std::size_t max_units) {
  if (auto s = r.check_object(node, path, {"id", "role", "from_unit", "to_unit", "applies_to_units"}, {"id", "role"});
      !s) {
    return s.error();
  }
  Parameter p;
  auto id = r.identifier(node["id"], path + "/id", kMaxIdLength);
  if (!id) return id.error();
  p.id = std::move(*id);
  auto role = r.one_of(node["role"], path + "/role",
                       {"input_to_hidden_weight", "hidden_to_output_weight", "hidden_bias", "output_bias"});
  if (!role) return role.error();
  p.role = static_cast<Role>(*role);
  if (node.contains("from_unit")) {
    auto u = r.identifier(node["from_unit"], path + "/from_unit", kMaxIdLength);
    if (!u) return u.error();
    p.from_unit = std::move(*u);
  }
  if (node.contains("to_unit")) {
    auto u = r.identifier(node["to_unit"], path + "/to_unit", kMaxIdLength);
    if (!u) return u.error();
    p.to_unit = std::move(*u);
  }
  if (node.contains("applies_to_units")) {
    auto u = r.identifier_array(node["applies_to_units"], path + "/applies_to_units", 0, max_units, kMaxIdLength);
    if (!u) return u.error();
    p.applies_to_units = std::move(*u);
  }
  return p;
}

template <class Json>
std::optional<Parameter> accepted_parameter(const Json& node, std::size_t max_units) {
  if (!node.is_object()) return std::nullopt;
  for (const auto& [key, value] : node.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) return std::nullopt;
  }
  if (!node.contains("id") || !node.contains("role")) return std::nullopt;
  Parameter p;
  const std::string* id = identifier_of(node["id"]);
  if (!id) return std::nullopt;
  p.id = *id;
  const Json& role = node["role"];
  if (!role.is_string()) return std::nullopt;
  const auto at = std::find(kRoles.begin(), kRoles.end(), role.template get_ref<const std::string&>());
  if (at == kRoles.end()) return std::nullopt;
  p.role = static_cast<Role>(at - kRoles.begin());
  for (auto [key, field] : {std::pair{"from_unit", &p.from_unit}, std::pair{"to_unit", &p.to_unit}}) {
    if (!node.contains(key)) continue;
    const std::string* unit = identifier_of(node[key]);
    if (!unit) return std::nullopt;
    *field = *unit;
  }
  if (node.contains("applies_to_units")) {
    const Json& units = node["applies_to_units"];
    if (!units.is_array() || units.size() > max_units) return std::nullopt;
    std::vector<std::string> ids;
    ids.reserve(units.size());
    for (const Json& u : units) {
      const std::string* unit = identifier_of(u);
      if (!unit) return std::nullopt;
      ids.push_back(*unit);
    }
    p.applies_to_units = std::move(ids);
  }
  return p;
}

template common::Result<Parameter> parse_parameter(const common::JsonReader&, const nlohmann::json&,
                                                   const std::string&, std::size_t);
template common::Result<Parameter> parse_parameter(const common::JsonReader&, const nlohmann::ordered_json&,
                                                   const std::string&, std::size_t);
template std::optional<Parameter> accepted_parameter(const nlohmann::json&, std::size_t);
template std::optional<Parameter> accepted_parameter(const nlohmann::ordered_json&, std::size_t);

}  // namespace receipt::topology
