#pragma once
// Read-only access to a receipt that never throws: every accessor answers "absent" (nullptr or
// nullopt) for a missing key, a wrong type or a non-object parent, the way the reference's
// optional chaining does. Booleans are never numbers (JSON true is not 1).
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "reconcile/read_json.hpp"

namespace reconcile {

// What the rules build (evidence, the engine's input) and what the importer reads with the
// accessors below.
using Tree = nlohmann::ordered_json;

// obj[key] when obj is an object holding key.
[[nodiscard]] const Json* member(const Json& obj, std::string_view key) noexcept;
[[nodiscard]] inline const Json* member(const Json* obj, std::string_view key) noexcept {
  return obj ? member(*obj, key) : nullptr;
}
[[nodiscard]] std::optional<double> as_number(const Json& v) noexcept;
[[nodiscard]] inline std::optional<double> as_number(const Json* v) noexcept {
  return v ? as_number(*v) : std::nullopt;
}
[[nodiscard]] std::optional<double> number_member(const Json& obj, std::string_view key) noexcept;
[[nodiscard]] std::optional<std::string_view> as_string(const Json* v) noexcept;
[[nodiscard]] std::optional<std::string_view> string_member(const Json& obj, std::string_view key) noexcept;
// The numbers of `map` in `order`'s order when it is an object of exactly those keys in that
// order, each a finite number (what receipt::reproduce::extract_general_input's tree reading
// accepts without a word); nullopt for anything else, which the tree reading then decides. The
// engine's input read from a receipt or sidecar in place (ReceiptMaps).
[[nodiscard]] std::optional<std::vector<double>> numbers_in_order(const Json* map, const std::vector<std::string>& order);
[[nodiscard]] const Json* object_member(const Json& obj, std::string_view key) noexcept;  // only if an object
[[nodiscard]] const Json* array_member(const Json& obj, std::string_view key) noexcept;   // only if an array

// The same on an ordered_json tree (the last value when a key was duplicated in the text).
[[nodiscard]] const Tree* member(const Tree& obj, std::string_view key) noexcept;
[[nodiscard]] inline const Tree* member(const Tree* obj, std::string_view key) noexcept {
  return obj ? member(*obj, key) : nullptr;
}
[[nodiscard]] std::optional<double> as_number(const Tree& v) noexcept;
[[nodiscard]] inline std::optional<double> as_number(const Tree* v) noexcept {
  return v ? as_number(*v) : std::nullopt;
}
[[nodiscard]] std::optional<double> number_member(const Tree& obj, std::string_view key) noexcept;
[[nodiscard]] const std::string* as_string(const Tree* v) noexcept;
[[nodiscard]] const std::string* string_member(const Tree& obj, std::string_view key) noexcept;
[[nodiscard]] const Tree* object_member(const Tree& obj, std::string_view key) noexcept;  // only if an object
[[nodiscard]] const Tree* array_member(const Tree& obj, std::string_view key) noexcept;   // only if an array

// Either kind of value (code templated over the value type: the importer reads a sidecar as a tree
// or in place): a string's bytes, empty for anything else; whether `v` is the string `s`.
template <class V>
[[nodiscard]] std::string_view text_or_empty(const V& v) noexcept {
  const auto t = as_string(&v);
  return t ? std::string_view(*t) : std::string_view();
}
template <class V>
[[nodiscard]] bool is_string_equal(const V* v, std::string_view s) noexcept {
  const auto t = as_string(v);
  return t && *t == s;
}

// Constant-time key lookup into one JSON object (ordered_json's own lookup is a linear scan,
// quadratic over a receipt with thousands of parameters). Views keys of `obj`, which must outlive it.
class ObjectIndex {
 public:
  ObjectIndex() = default;
  explicit ObjectIndex(const Json* obj);
  [[nodiscard]] const Json* find(std::string_view key) const noexcept;
  [[nodiscard]] std::optional<double> number(std::string_view key) const noexcept { return as_number(find(key)); }
  [[nodiscard]] bool contains(std::string_view key) const noexcept { return find(key) != nullptr; }
  [[nodiscard]] std::size_t size() const noexcept { return map_.size(); }

 private:
  std::unordered_map<std::string_view, const Json*> map_;
};

// Rule 8 provenance paths as receipts write them: dotted names with bracketed indices,
// "updates[0].optimizer.factors[1].value". Resolves to a finite number or explains why not.
struct PathLookup {
  std::optional<double> value;
  std::string reason;  // set when value is absent
};
[[nodiscard]] PathLookup resolve_path(const Json& root, std::string_view path);

// JavaScript's String(number): what the reference prints inside messages.
[[nodiscard]] std::string js_number(double v);

}  // namespace reconcile
