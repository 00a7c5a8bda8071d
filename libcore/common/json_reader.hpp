#pragma once
// The strict typed reader over a parsed JSON document (common::parse_json_text gives the DOM,
// with its size and nesting limits): every read checks the type and range, refuses keys it was
// not told about, and names the JSON Pointer of the value in its error.
//
//   const common::JsonReader r{"config.json"};
//   if (auto s = r.check_object(node, "/layers/0", {"id", "units"}, {"id"}); !s) return s.error();
//   auto units = r.integer(node["units"], "/layers/0/units", 1, 4096);
//
//   common::JsonFields f(obj, "in.json", 0, "/ticks/3");     // the same reads, by key
//   if (auto s = f.only({"ram", "vram"}); !s) return s.error();
//   auto ram = f.unit_float("ram");
//
// Two message dialects, because each tool's tests pin its texts: `terse` names the type it got
// ("expected a number, got string"), `quoting` quotes the offending value, cut with
// common::excerpt ("expected a number, got \"x\"") and lists the allowed keys of an object.
// Every check costs time linear in what it reads; a message quotes at most
// kMaxQuotedInputBytes of the input. nlohmann::json, nlohmann::ordered_json and JsonView
// (json_document.hpp: a document read without a tree) are read, with the same messages.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "common/result.hpp"
#include "common/same_key.hpp"

namespace common {

// Appends one reference token to a JSON Pointer (RFC 6901 escaping of '~' and '/').
[[nodiscard]] std::string json_child_path(const std::string& parent, std::string_view key);
[[nodiscard]] std::string json_child_path(const std::string& parent, std::size_t index);

// ^[a-zA-Z][a-zA-Z0-9_]*$: what JsonReader::identifier accepts (besides its length limit).
[[nodiscard]] bool is_identifier(std::string_view s) noexcept;

class JsonReader {
 public:
  enum class Dialect { terse, quoting };

  explicit JsonReader(std::string_view file, std::int64_t line = 0, Dialect dialect = Dialect::terse)
      : file_(file), line_(line), dialect_(dialect) {}

  // A malformed-input error at `path` ("/" when empty) of this reader's file and line.
  [[nodiscard]] Error error(const std::string& path, std::string message) const;

  // `node` must be an object whose keys are all in `allowed` and which has every key in `required`.
  template <class Json>
  [[nodiscard]] Status check_object(const Json& node, const std::string& path,
                                    std::initializer_list<std::string_view> allowed,
                                    std::initializer_list<std::string_view> required = {}) const;
  template <class Json>
  [[nodiscard]] Result<double> finite_number(const Json& node, const std::string& path) const;
  // A finite number in [0, 1].
  template <class Json>
  [[nodiscard]] Result<double> unit_interval(const Json& node, const std::string& path) const;
  // An integer in [min, max]; JSON has one number type, so 3.0 is the integer 3 (as
  // JavaScript's Number.isInteger says).
  template <class Json>
  [[nodiscard]] Result<std::int64_t> integer(const Json& node, const std::string& path, std::int64_t min,
                                             std::int64_t max) const;
  // An integer written without a fraction or exponent: any uint64 / any int64.
  template <class Json>
  [[nodiscard]] Result<std::uint64_t> unsigned_integer(const Json& node, const std::string& path) const;
  template <class Json>
  [[nodiscard]] Result<std::int64_t> signed_integer(const Json& node, const std::string& path) const;
  template <class Json>
  [[nodiscard]] Result<std::string> string(const Json& node, const std::string& path,
                                           std::size_t max_length = SIZE_MAX) const;
  template <class Json>
  [[nodiscard]] Result<bool> boolean(const Json& node, const std::string& path) const;
  // An identifier: ^[a-zA-Z][a-zA-Z0-9_]*$, at most max_length bytes.
  template <class Json>
  [[nodiscard]] Result<std::string> identifier(const Json& node, const std::string& path,
                                               std::size_t max_length) const;
  // An array of identifiers with min_items <= size <= max_items (checked before reading items).
  template <class Json>
  [[nodiscard]] Result<std::vector<std::string>> identifier_array(const Json& node, const std::string& path,
                                                                  std::size_t min_items, std::size_t max_items,
                                                                  std::size_t max_length) const;
  // One of `choices`, returned as its index.
  template <class Json>
  [[nodiscard]] Result<std::size_t> one_of(const Json& node, const std::string& path,
                                           std::initializer_list<std::string_view> choices) const;
  template <class Json>
  [[nodiscard]] Status array(const Json& node, const std::string& path) const;
  template <class Json>
  [[nodiscard]] Status object(const Json& node, const std::string& path) const;

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] std::int64_t line() const { return line_; }

 private:
  // What a message says it got: the type (terse) or an excerpt of the value (quoting).
  template <class Json>
  [[nodiscard]] std::string got(const Json& node) const;

  std::string file_;
  std::int64_t line_;
  Dialect dialect_;
};

// The reader's checks by key on one JSON object, in the quoting dialect: the object sits at
// `path` of `file` (`line` for a JSONL record, 0 otherwise). Node is nlohmann::ordered_json
// (JsonFields: array() and object() give pointers into the tree) or JsonView (JsonViewFields:
// they give views of the document); the same checks, the same messages.
template <class Node>
class BasicJsonFields {
 public:
  using Ref = std::conditional_t<std::is_same_v<Node, JsonView>, JsonView, const Node*>;

  BasicJsonFields(const Node& obj, std::string file, std::int64_t line, std::string path);

  [[nodiscard]] Status only(std::initializer_list<const char*> allowed) const;  // the object check too
  [[nodiscard]] bool has(const char* key) const;
  [[nodiscard]] Result<bool> boolean(const char* key) const;
  [[nodiscard]] Result<std::uint64_t> unsigned_int(const char* key) const;
  [[nodiscard]] Result<std::int64_t> signed_int(const char* key) const;
  [[nodiscard]] Result<double> number(const char* key) const;
  [[nodiscard]] Result<float> unit_float(const char* key) const;  // finite, in [0, 1]
  [[nodiscard]] Result<std::string> string(const char* key) const;
  [[nodiscard]] Result<Ref> array(const char* key) const;
  [[nodiscard]] Result<Ref> object(const char* key) const;
  // An error at obj/key (at the object itself when key is empty).
  [[nodiscard]] Error error(const std::string& key, const std::string& msg) const;
  [[nodiscard]] std::string pointer(const std::string& key) const;

  std::string file;
  std::int64_t line;
  std::string path;

 private:
  [[nodiscard]] Result<Ref> get(const char* key) const;
  [[nodiscard]] JsonReader reader() const { return JsonReader(file, line, JsonReader::Dialect::quoting); }
  [[nodiscard]] static const Node& node(const Ref& r) {
    if constexpr (std::is_same_v<Node, JsonView>) {
      return r;
    } else {
      return *r;
    }
  }
  Ref obj_;
};

using JsonFields = BasicJsonFields<nlohmann::ordered_json>;
using JsonViewFields = BasicJsonFields<JsonView>;

// For readers written once for trees and documents: an object's member (the tree's pointer or
// nullptr, the document's view or nullopt; either tests and dereferences alike), and what a
// range-for over an array's elements takes.
// The tree's member is the one ordered_json::find finds (the first of that key), keys compared
// by same_key (length and ends) instead of a call to memcmp per member.
[[nodiscard]] inline const nlohmann::ordered_json* find_member(const nlohmann::ordered_json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  for (const auto& [k, v] : obj.get_ref<const nlohmann::ordered_json::object_t&>()) {
    if (same_key(k, key)) return &v;
  }
  return nullptr;
}
[[nodiscard]] inline std::optional<JsonView> find_member(JsonView obj, std::string_view key) {
  return obj.is_object() ? obj.find(key) : std::nullopt;
}
template <class Json>
  requires(!std::is_same_v<Json, JsonView>)
[[nodiscard]] const Json& elements_of(const Json& arr) {
  return arr;
}
[[nodiscard]] inline JsonView::Range elements_of(JsonView arr) { return arr.elements(); }

}  // namespace common
