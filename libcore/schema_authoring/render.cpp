#include "schema_authoring/render.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace schema_authoring {

namespace {

// Annotations first, then what a reader looks for first: the type, the value
// constraints, the object's shape, the combinators, and the definitions last.
constexpr std::array<std::string_view, 36> kKeywordOrder{"$schema",
                                                         "$id",
                                                         "title",
                                                         "description",
                                                         "$comment",
                                                         "type",
                                                         "const",
                                                         "enum",
                                                         "$ref",
                                                         "x-order",
                                                         "minimum",
                                                         "maximum",
                                                         "exclusiveMinimum",
                                                         "exclusiveMaximum",
                                                         "minLength",
                                                         "pattern",
                                                         "minItems",
                                                         "maxItems",
                                                         "uniqueItems",
                                                         "items",
                                                         "maxProperties",
                                                         "additionalProperties",
                                                         "required",
                                                         "properties",
                                                         "oneOf",
                                                         "anyOf",
                                                         "allOf",
                                                         "not",
                                                         "if",
                                                         "then",
                                                         "else",
                                                         "$defs",
                                                         "patternProperties",
                                                         "propertyNames",
                                                         "minProperties",
                                                         "dependentRequired"};

std::size_t rank(const std::string& key) {
  const auto it = std::find(kKeywordOrder.begin(), kKeywordOrder.end(), key);
  return static_cast<std::size_t>(it - kKeywordOrder.begin());
}

bool is_name_map(const std::string& key) { return key == "properties" || key == "$defs" || key == "patternProperties"; }

Json reorder(const Json& node);

Json reorder_names(const Json& names) {
  Json out = Json::object();
  for (const auto& [name, schema] : names.items()) out[name] = reorder(schema);
  return out;
}

Json reorder(const Json& node) {
  if (node.is_array()) {
    Json out = Json::array();
    for (const auto& v : node) out.push_back(reorder(v));
    return out;
  }
  if (!node.is_object()) return node;
  std::vector<std::string> keys;
  for (const auto& [k, v] : node.items()) keys.push_back(k);
  // Unknown keywords sort last, in authored order.
  std::stable_sort(keys.begin(), keys.end(),
                   [](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  Json out = Json::object();
  for (const auto& k : keys) {
    const Json& v = node.at(k);
    if (is_name_map(k) && v.is_object())
      out[k] = reorder_names(v);
    else if (k == "x-order" || k == "required" || k == "enum" || k == "const")
      out[k] = v;  // values, not schemas
    else
      out[k] = reorder(v);
  }
  return out;
}

}  // namespace

Json canonical_keyword_order(const Json& schema) { return reorder(schema); }

std::string render(const Json& schema) { return canonical_keyword_order(schema).dump(2) + "\n"; }

}  // namespace schema_authoring
