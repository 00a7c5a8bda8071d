#include "schema_authoring/node.hpp"

#include <algorithm>
#include <stdexcept>

namespace schema_authoring {

namespace {

Json typed(std::string_view type) { return Json{{"type", std::string(type)}}; }

// A definition that names a field it does not have is a bug in our own tables,
// found the first time the generator runs.
[[noreturn]] void no_such_field(std::string_view name) {
  throw std::logic_error("schema authoring: no field '" + std::string(name) + "'");
}

Json names(std::initializer_list<std::string_view> list) {
  Json out = Json::array();
  for (auto n : list) out.push_back(std::string(n));
  return out;
}

Json jsons(const std::vector<Node>& parts) {
  Json out = Json::array();
  for (const auto& p : parts) out.push_back(p.json());
  return out;
}

}  // namespace

Node& Node::title(std::string_view text) {
  j_["title"] = std::string(text);
  return *this;
}
Node& Node::describe(std::string_view text) {
  j_["description"] = std::string(text);
  return *this;
}

Node& Node::min(Json bound) {
  j_["minimum"] = std::move(bound);
  return *this;
}
Node& Node::max(Json bound) {
  j_["maximum"] = std::move(bound);
  return *this;
}
Node& Node::above(Json bound) {
  j_["exclusiveMinimum"] = std::move(bound);
  return *this;
}
Node& Node::below(Json bound) {
  j_["exclusiveMaximum"] = std::move(bound);
  return *this;
}

Node& Node::pattern(std::string_view regex) {
  j_["pattern"] = std::string(regex);
  return *this;
}
Node& Node::min_length(int n) {
  j_["minLength"] = n;
  return *this;
}

Node& Node::min_items(int n) {
  j_["minItems"] = n;
  return *this;
}
Node& Node::max_items(int n) {
  j_["maxItems"] = n;
  return *this;
}
Node& Node::unique() {
  j_["uniqueItems"] = true;
  return *this;
}

bool Node::has_field(std::string_view name) const {
  const auto p = j_.find("properties");
  return p != j_.end() && p->contains(std::string(name));
}

const Json& Node::field_json(std::string_view name) const {
  if (!has_field(name)) no_such_field(name);
  return j_["properties"][std::string(name)];
}

Node& Node::put_field(std::string_view anchor, std::string_view name, Node schema, bool required) {
  Json props = j_.contains("properties") ? j_["properties"] : Json::object();
  Json rebuilt = Json::object();
  if (anchor.empty()) {
    rebuilt = std::move(props);
    rebuilt[std::string(name)] = std::move(schema.j_);
  } else {
    if (!props.contains(std::string(anchor))) no_such_field(anchor);
    for (auto& [k, v] : props.items()) {
      rebuilt[k] = std::move(v);
      if (k == anchor) rebuilt[std::string(name)] = std::move(schema.j_);
    }
  }
  j_["properties"] = std::move(rebuilt);
  if (required) {
    // "required" lists fields in field order.
    Json old = j_.contains("required") ? j_["required"] : Json::array();
    Json req = Json::array();
    for (const auto& [k, v] : j_["properties"].items()) {
      const bool was = std::find(old.begin(), old.end(), Json(k)) != old.end();
      if (was || k == name) req.push_back(k);
    }
    j_["required"] = std::move(req);
  }
  sync_order();
  return *this;
}

Node& Node::field(std::string_view name, Node schema) { return put_field("", name, std::move(schema), true); }
Node& Node::optional(std::string_view name, Node schema) { return put_field("", name, std::move(schema), false); }
Node& Node::field_after(std::string_view anchor, std::string_view name, Node schema) {
  return put_field(anchor, name, std::move(schema), true);
}
Node& Node::optional_after(std::string_view anchor, std::string_view name, Node schema) {
  return put_field(anchor, name, std::move(schema), false);
}

Node& Node::replace(std::string_view name, Node schema) {
  if (!has_field(name)) no_such_field(name);
  j_["properties"][std::string(name)] = std::move(schema.j_);
  return *this;
}

Node& Node::remove(std::string_view name) {
  if (!has_field(name)) no_such_field(name);
  j_["properties"].erase(std::string(name));
  if (auto r = j_.find("required"); r != j_.end()) {
    r->erase(std::remove(r->begin(), r->end(), Json(std::string(name))), r->end());
    if (r->empty()) j_.erase("required");
  }
  sync_order();
  return *this;
}

Node& Node::closed() {
  j_["additionalProperties"] = false;
  return *this;
}
Node& Node::values(Node schema) {
  j_["additionalProperties"] = std::move(schema.j_);
  return *this;
}
Node& Node::max_properties(int n) {
  j_["maxProperties"] = n;
  return *this;
}
Node& Node::ordered() {
  j_["x-order"] = Json::array();
  sync_order();
  return *this;
}
Node& Node::unordered() {
  j_.erase("x-order");
  return *this;
}
Node& Node::fixed(Json value) {
  j_["const"] = std::move(value);
  return *this;
}
Node& Node::required_list(std::initializer_list<std::string_view> list) {
  j_["required"] = names(list);
  return *this;
}

void Node::sync_order() {
  if (!j_.contains("x-order")) return;
  Json order = Json::array();
  if (j_.contains("properties"))
    for (const auto& [k, v] : j_["properties"].items()) order.push_back(k);
  j_["x-order"] = std::move(order);
}

Node& Node::all_of(std::vector<Node> parts) {
  j_["allOf"] = jsons(parts);
  return *this;
}
Node& Node::any_of(std::vector<Node> parts) {
  j_["anyOf"] = jsons(parts);
  return *this;
}
Node& Node::one_of(std::vector<Node> parts) {
  j_["oneOf"] = jsons(parts);
  return *this;
}
Node& Node::never(Node schema) {
  j_["not"] = std::move(schema.j_);
  return *this;
}
Node& Node::if_then(Node condition, Node consequence) {
  j_["if"] = std::move(condition.j_);
  j_["then"] = std::move(consequence.j_);
  return *this;
}

Node& Node::set_all_of(std::size_t index, Node part) {
  auto& list = j_.at("allOf");
  if (index >= list.size()) throw std::logic_error("schema authoring: allOf has no entry " + std::to_string(index));
  list[index] = std::move(part.j_);
  return *this;
}
Node& Node::append_all_of(Node part) {
  if (!j_.contains("allOf")) j_["allOf"] = Json::array();
  j_["allOf"].push_back(std::move(part.j_));
  return *this;
}

Node object() { return Node(typed("object")); }
Node number() { return Node(typed("number")); }
Node integer() { return Node(typed("integer")); }
Node string() { return Node(typed("string")); }
Node boolean() { return Node(typed("boolean")); }
Node array(Node items) {
  Json j = typed("array");
  j["items"] = items.json();
  return Node(std::move(j));
}
Node untyped_array() { return Node(typed("array")); }
Node ref(std::string_view def_name) { return Node(Json{{"$ref", "#/$defs/" + std::string(def_name)}}); }
Node constant(Json value) { return Node(Json{{"const", std::move(value)}}); }
Node one_of_values(std::initializer_list<Json> values) { return Node(Json{{"enum", Json::array_t(values)}}); }
Node map_of(Node value_schema) { return object().values(std::move(value_schema)); }
Node anything() { return Node(); }

Node requires_keys(std::initializer_list<std::string_view> list) { return Node(Json{{"required", names(list)}}); }
Node forbids_key(std::string_view name) { return Node().never(requires_keys({name})); }
Node either(std::vector<Node> options) { return Node().any_of(std::move(options)); }
Node all(std::vector<Node> parts) { return Node().all_of(std::move(parts)); }

}  // namespace schema_authoring
