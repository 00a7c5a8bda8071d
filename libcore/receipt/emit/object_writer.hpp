#pragma once
// ObjectWriter: walks a receipt along Field layouts and writes canonical bytes, keeping the JSON
// Pointer of the value being written so every error names where it happened. Sections supply a
// callback for `nested` fields. Internal to receipt::emit.
//
// The receipt may be any read-only JSON value with nlohmann's accessors (is_object(), get<double>(),
// size(), operator[](i), iteration with key()) and two free functions found for it: member_of(v,
// key) (a pointer to an object's member, or nullptr) and text_of(v) (a string's bytes). Those for
// nlohmann::ordered_json are below; reconcile::Json (a receipt read for the rules) has its own, so
// a receipt read from its text is written without first becoming a tree.
#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/canonical_json.hpp"
#include "common/json_reader.hpp"
#include "common/result.hpp"
#include "common/same_key.hpp"
#include "receipt/emit/field_layout.hpp"

namespace receipt::emit {

using ojson = nlohmann::ordered_json;
using common::Status;

// The accessors of an ordered_json receipt.
// Always inlined, as the member loop was before these writers were templates (an out-of-line
// find_member cost the 300-step import 4M instructions).
[[nodiscard, gnu::always_inline]] inline const ojson* member_of(const ojson& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  for (const auto& [k, v] : obj.get_ref<const ojson::object_t&>()) {
    if (common::same_key(k, key)) return &v;
  }
  return nullptr;
}
[[nodiscard]] inline std::string_view text_of(const ojson& s) { return s.get_ref<const std::string&>(); }

// "a string", "an object", ... as the errors say it.
template <class V>
[[nodiscard]] const char* type_name(const V& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  if (v.is_number()) return "a number";
  return "an unsupported value";
}

class ObjectWriter {
 public:
  // Writes `obj` as an object with the layout's fields in order; a nested field's value is given
  // to nested(key, value).
  template <class V, class Nested>
  [[nodiscard]] Status object(const V& obj, const Layout& layout, const Nested& nested);
  template <class V>
  [[nodiscard]] Status object(const V& obj, const Layout& layout) {
    return object(obj, layout, [this](std::string_view, const V&) -> Status {
      return error("internal: no writer for nested field");
    });
  }
  // Writes {"<id>": value, ...} iterating `order` (an array of ids, or a list of pointers to
  // them); each value by `one`.
  template <class V, class Order, class One>
  [[nodiscard]] Status ordered_map(const V& map, const Order& order, const One& one);
  template <class V, class Order>
  [[nodiscard]] Status number_map(const V& map, const Order& order) {
    return ordered_map(map, order, [this](const V& v) { return scalar(v, FieldKind::number); });
  }
  // Writes an array, each element by `one`.
  template <class V, class One>
  [[nodiscard]] Status array(const V& arr, const One& one);
  template <class V>
  [[nodiscard]] Status string_array(const V& arr) {
    return array(arr, [this](const V& v) { return scalar(v, FieldKind::string); });
  }
  template <class V>
  [[nodiscard]] Status scalar(const V& v, FieldKind kind);

  // An error at the current JSON Pointer (plus `child`, when given).
  [[nodiscard]] common::Error error(std::string message, std::string_view child = {}) const;

  // Scoped descent into a child key or index for error paths. The key is kept as a view (it must
  // outlive the step: a layout's key or the document's) and escaped only when an error is made.
  class Step {
   public:
    [[gnu::always_inline]] Step(ObjectWriter& w, std::string_view key) : w_(w) { w_.push({key, 0}); }
    [[gnu::always_inline]] Step(ObjectWriter& w, std::size_t index) : w_(w) { w_.push({{}, index + 1}); }
    [[gnu::always_inline]] ~Step() { --w_.depth_; }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;

   private:
    ObjectWriter& w_;
  };

  common::CompactJsonWriter& out() { return out_; }
  void set_has_batch(bool b) { has_batch_ = b; }

 private:
  common::CompactJsonWriter out_;
  struct Token {
    std::string_view key;
    std::size_t index_plus_one = 0;  // 0: a key
  };
  // The path to the value being written. The writers descend only along the layouts (a
  // receipt's deepest value is about ten steps down), whatever the input's depth: a fixed array,
  // not a vector, whose push was a call per step (300 imported steps: 5.1M instructions more).
  static constexpr std::size_t kMaxDepth = 32;
  [[gnu::always_inline]] void push(const Token& t) {
    if (depth_ < kMaxDepth) tokens_[depth_] = t;
    ++depth_;
  }
  std::array<Token, kMaxDepth> tokens_;
  std::size_t depth_ = 0;
  bool has_batch_ = false;
};

template <class V>
Status ObjectWriter::scalar(const V& v, FieldKind kind) {
  switch (kind) {
    case FieldKind::string:
      if (!v.is_string()) return error(std::string("expected a string, got ") + type_name(v));
      out_.string(text_of(v));
      return {};
    case FieldKind::number:
    case FieldKind::nonzero_number:
      if (!v.is_number()) return error(std::string("expected a number, got ") + type_name(v));
      if (auto s = out_.number(v.template get<double>()); !s) return error(s.error().message());
      return {};
    case FieldKind::integer:
      if (!v.is_number()) return error(std::string("expected an integer, got ") + type_name(v));
      // Through a double, as JSON.parse would have read it.
      if (auto s = out_.integer(v.template get<double>()); !s) return error(s.error().message());
      return {};
    case FieldKind::boolean:
    case FieldKind::true_only:
      if (!v.is_boolean()) return error(std::string("expected a boolean, got ") + type_name(v));
      out_.boolean(v.template get<bool>());
      return {};
    case FieldKind::string_array:
      return string_array(v);
    case FieldKind::nested:
      break;
  }
  return error("internal: nested field without a writer");
}

template <class V, class Nested>
Status ObjectWriter::object(const V& obj, const Layout& layout, const Nested& nested) {
  if (!obj.is_object()) return error(std::string("expected an object, got ") + type_name(obj));
  out_.begin_object();
  // Receipts and sidecars hold their members in the layout's order: the member after the last one
  // found is tried first, and only a miss there scans the object (a scan per field was a tenth of
  // the import's emission).
  auto next = obj.begin();
  const auto last = obj.end();
  for (const Field& f : layout.fields) {
    const V* it = nullptr;
    if (next != last && common::same_key(next.key(), f.key)) {
      it = &*next;
      ++next;
    } else {
      it = member_of(obj, f.key);
    }
    const bool present = it != nullptr;
    if (f.kind == FieldKind::true_only && !(present && it->is_boolean() && it->template get<bool>())) continue;
    if (f.kind == FieldKind::nonzero_number && (!present || (it->is_number() && it->template get<double>() == 0))) {
      continue;
    }
    if (!present) {
      if (f.presence != Presence::required) continue;
      return error("missing required field \"" + std::string(f.key) + "\"", f.key);
    }
    if (f.presence == Presence::optional_batched && !has_batch_) continue;
    Step step(*this, f.key);
    out_.program_key(f.key);
    if (f.kind == FieldKind::nested) {
      if (auto s = nested(f.key, *it); !s) return s;
    } else if (auto s = scalar(*it, f.kind); !s) {
      return s;
    }
  }
  out_.end_object();
  return {};
}

template <class V, class Order, class One>
Status ObjectWriter::ordered_map(const V& map, const Order& order, const One& one) {
  if (!map.is_object()) return error(std::string("expected an object, got ") + type_name(map));
  constexpr bool kArray = std::is_same_v<Order, V>;  // else a list of pointers to ids
  if constexpr (kArray) {
    if (!order.is_array()) return error("the declared order is not an array");
  }
  // Lookups by key are linear, and parameter maps reach 10^4+ entries: follow the map's own order
  // while it agrees with the declared one (the engine's case), and fall back to a hash index built
  // once when it does not.
  auto cursor = map.begin();
  std::unordered_map<std::string_view, const V*> index;
  out_.begin_object();
  for (const auto& entry : order) {
    const V* id_value;
    if constexpr (kArray) {
      id_value = &entry;
    } else {
      id_value = entry;
    }
    const V& id = *id_value;
    if (!id.is_string()) return error("the declared order contains " + std::string(type_name(id)) + ", not an id");
    const std::string_view key = text_of(id);
    const V* value = nullptr;
    if (cursor != map.end() && common::same_key(cursor.key(), key)) {
      value = &*cursor;
      ++cursor;
    } else {
      if (index.empty()) {
        index.reserve(map.size());
        for (auto it = map.begin(); it != map.end(); ++it) index.emplace(it.key(), &*it);
      }
      if (auto hit = index.find(key); hit != index.end()) value = hit->second;
    }
    if (value == nullptr) return error("missing \"" + std::string(key) + "\", which the declared order lists", key);
    Step step(*this, key);
    out_.key(key);
    if (auto s = one(*value); !s) return s;
  }
  out_.end_object();
  return {};
}

template <class V, class One>
Status ObjectWriter::array(const V& arr, const One& one) {
  if (!arr.is_array()) return error(std::string("expected an array, got ") + type_name(arr));
  out_.begin_array();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    Step step(*this, i);
    if (auto s = one(arr[i]); !s) return s;
  }
  out_.end_array();
  return {};
}

}  // namespace receipt::emit
