#pragma once
// A small builder language for JSON Schema (draft 2020-12) nodes, so the suite's
// schemas read as a specification and are generated, not copied:
//
//   object()
//       .field("net", number())                         // required, in this order
//       .optional("note", string())                     // declared, not required
//       .closed()                                       // additionalProperties: false
//       .ordered()                                      // "x-order" = the fields' order
//
// A Node is a value: copy one, edit the copy (the version deltas in
// receipt_versions.cpp do exactly that). Edits keep "required" and "x-order" in
// step with the field order. Output key order is fixed by the renderer
// (render.hpp), not by the order of the calls.
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace schema_authoring {

using Json = nlohmann::ordered_json;

class Node {
 public:
  Node() = default;  // the empty schema {}: accepts anything
  explicit Node(Json keywords) : j_(std::move(keywords)) {}

  // --- annotations (never constraints) ---
  Node& title(std::string_view text);
  Node& describe(std::string_view text);

  Node& fixed(Json value);  // "const" on a typed node

  // --- numbers ---
  Node& min(Json bound);    // minimum
  Node& max(Json bound);    // maximum
  Node& above(Json bound);  // exclusiveMinimum
  Node& below(Json bound);  // exclusiveMaximum

  // --- strings ---
  Node& pattern(std::string_view regex);
  Node& min_length(int n);
  Node& non_empty() { return min_length(1); }

  // --- arrays ---
  Node& min_items(int n);
  Node& max_items(int n);
  Node& unique();

  // --- objects ---
  Node& field(std::string_view name, Node schema);     // appended, required
  Node& optional(std::string_view name, Node schema);  // appended, not required
  // Inserted right after `anchor` (which must exist); required ones keep "required"
  // in field order.
  Node& field_after(std::string_view anchor, std::string_view name, Node schema);
  Node& optional_after(std::string_view anchor, std::string_view name, Node schema);
  Node& replace(std::string_view name, Node schema);  // same place, same requiredness
  Node& remove(std::string_view name);
  Node& closed();             // additionalProperties: false
  Node& values(Node schema);  // additionalProperties: <schema> (a map's values)
  Node& max_properties(int n);
  Node& ordered();    // x-order follows the fields from now on
  Node& unordered();  // no x-order
  // An explicit "required" list, for conditions and the rare object whose
  // required list does not follow its field order.
  Node& required_list(std::initializer_list<std::string_view> names);

  // --- combinators appended to this node ---
  Node& all_of(std::vector<Node> parts);
  Node& any_of(std::vector<Node> parts);
  Node& one_of(std::vector<Node> parts);
  Node& never(Node schema);  // "not"
  Node& if_then(Node condition, Node consequence);

  // Edits a field's schema in place: node.edit("optimizer", [](Node& o) { ... }).
  template <class Fn>
  Node& edit(std::string_view name, Fn&& fn) {
    Node inner(field_json(name));
    fn(inner);
    return replace(name, std::move(inner));
  }
  // Replaces allOf[index] (conditions are positional in the formats' history).
  Node& set_all_of(std::size_t index, Node part);
  Node& append_all_of(Node part);

  [[nodiscard]] const Json& json() const { return j_; }
  [[nodiscard]] bool has_field(std::string_view name) const;

 private:
  const Json& field_json(std::string_view name) const;
  Node& put_field(std::string_view anchor, std::string_view name, Node schema, bool required);
  void sync_order();

  Json j_ = Json::object();
};

// --- leaves ---
[[nodiscard]] Node object();
[[nodiscard]] Node number();
[[nodiscard]] Node integer();
[[nodiscard]] Node string();
[[nodiscard]] Node boolean();
[[nodiscard]] Node array(Node items);
[[nodiscard]] Node untyped_array();  // {"type":"array"} with no item schema
[[nodiscard]] Node ref(std::string_view def_name);
[[nodiscard]] Node constant(Json value);
[[nodiscard]] Node one_of_values(std::initializer_list<Json> values);  // "enum"
[[nodiscard]] Node map_of(Node value_schema);                          // object whose every value matches
[[nodiscard]] Node anything();                                         // {}

// --- small combinations used throughout ---
[[nodiscard]] Node requires_keys(std::initializer_list<std::string_view> names);  // {"required":[...]}
[[nodiscard]] Node forbids_key(std::string_view name);                            // {"not":{"required":[name]}}
[[nodiscard]] Node either(std::vector<Node> options);                             // {"anyOf":[...]}
[[nodiscard]] Node all(std::vector<Node> parts);                                  // {"allOf":[...]}

}  // namespace schema_authoring
