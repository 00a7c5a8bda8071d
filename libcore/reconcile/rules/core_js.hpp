#pragma once
// The JavaScript semantics the reference's rules (0-8, 11-13) rely on, so that our verdicts agree
// with its verdicts on malformed input too, not only on schema-valid receipts:
//   - a property read on null/undefined throws (JsTypeError here; reconcile_receipt turns it into
//     the reference's Rule 0 "a reconciliation rule threw" failure on `updates`);
//   - arithmetic coerces (ToNumber: "0.5" * 2 is 1, null * 2 is 0, [] * 2 is 0) while `+`
//     concatenates as soon as one side is a string, array or object;
//   - typeof / truthiness / strict equality / Object.keys order (integer-like keys first);
//   - Set and Map keys compare by SameValueZero (the string "1" is not the number 1).
// A Ref is a pointer into the receipt; nullptr stands for `undefined`. Nothing here allocates on
// the path a well-formed receipt takes, except where noted.
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reconcile/json_access.hpp"
#include "reconcile/rules/core_flat_map.hpp"

namespace reconcile::rules::core {

using Ref = const Json*;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Where the reference would throw a TypeError.
class JsTypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Canonical array index ("0", "17"; not "01", "-1", "1.0"), as JS property keys are matched.
[[nodiscard]] std::optional<std::size_t> array_index(std::string_view key) noexcept;

// An object's own key (JSON.parse keeps the last of duplicated keys; so does the parser here).
[[nodiscard]] Ref find_key(const Json& object, std::string_view key) noexcept;

// base[key] for a base that is not null/undefined (objects: own key; arrays: index; anything
// else: undefined). The reference never reads a prototype member the receipts could name.
[[nodiscard]] Ref lookup(Ref base, std::string_view key) noexcept;
// base.key: throws JsTypeError when base is undefined or null.
[[nodiscard]] Ref get(Ref base, std::string_view key);
// base?.key
[[nodiscard]] inline Ref opt(Ref base, std::string_view key) noexcept {
  return base == nullptr || base->is_null() ? nullptr : lookup(base, key);
}

// Reads of one key across sibling objects laid out alike (every update of a receipt): the position
// where it was last found is tried before any scan. Same answers as lookup()/get().
class KeyHint {
 public:
  explicit KeyHint(std::string_view key) noexcept : key_(key) {}
  [[nodiscard]] Ref in(Ref obj) noexcept {
    if (!obj || !obj->is_object()) return lookup(obj, key_);
    const auto& map = obj->members();  // a vector of (key, value) pairs
    const auto begin = map.begin();
    const std::size_t n = map.size();
    if (hint_ < n && matches(begin[static_cast<std::ptrdiff_t>(hint_)].first)) {
      return &begin[static_cast<std::ptrdiff_t>(hint_)].second;
    }
    for (std::size_t i = n; i-- > 0;) {
      if (matches(begin[static_cast<std::ptrdiff_t>(i)].first)) {
        hint_ = i;
        return &begin[static_cast<std::ptrdiff_t>(i)].second;
      }
    }
    return nullptr;
  }
  // obj.key: throws JsTypeError when obj is undefined or null.
  [[nodiscard]] Ref get(Ref obj) {
    if (!obj || obj->is_null()) return core::get(obj, key_);
    return in(obj);
  }
  // obj?.key
  [[nodiscard]] Ref opt(Ref obj) noexcept { return !obj || obj->is_null() ? nullptr : in(obj); }

 private:
  [[nodiscard]] bool matches(std::string_view k) const noexcept { return same_key(k, key_); }
  std::string_view key_;
  std::size_t hint_ = 0;
};

[[nodiscard]] bool truthy(Ref v) noexcept;
// typeof v === "object" && v !== null (objects and arrays)
[[nodiscard]] inline bool is_object(Ref v) noexcept { return v && (v->is_object() || v->is_array()); }
[[nodiscard]] inline bool is_array(Ref v) noexcept { return v && v->is_array(); }
[[nodiscard]] inline bool is_number(Ref v) noexcept { return v && v->is_number(); }
[[nodiscard]] inline bool is_string(Ref v) noexcept { return v && v->is_string(); }
[[nodiscard]] inline double number(Ref v) noexcept { return v->get<double>(); }  // is_number(v) holds
[[nodiscard]] inline bool is_finite_number(Ref v) noexcept { return is_number(v) && std::isfinite(number(v)); }
// v === "text"
[[nodiscard]] inline bool equals(Ref v, std::string_view text) noexcept {
  return v && v->is_string() && v->string() == text;
}
// a === b for two values read from JSON (objects and arrays only equal themselves).
[[nodiscard]] bool strict_equals(Ref a, Ref b) noexcept;

// ToNumber.
[[nodiscard]] double to_number(Ref v) noexcept;
[[nodiscard]] double string_to_number(std::string_view s) noexcept;
// String(v), as template literals and property keys spell a value (allocates).
[[nodiscard]] std::string to_string(Ref v);
// The value as it would print in a field path: a key string, or String(v).
[[nodiscard]] inline std::string key_of(Ref v) {
  return v && v->is_string() ? std::string(v->string()) : to_string(v);
}

// typeof v
[[nodiscard]] std::string js_typeof(Ref v);
// JSON.stringify(v) for a value read from JSON (allocates).
[[nodiscard]] std::string js_stringify_value(const Json& v);
// JSON.stringify(s) for a string.
[[nodiscard]] std::string js_stringify_text(std::string_view s);

// for (const x of v): arrays give their elements; a string gives its characters, which no rule
// here can use (so none are visited); anything else is not iterable and throws.
template <class F>
void for_of(Ref v, const char* what, F&& f) {
  if (v && v->is_array()) {
    for (const auto& e : *v) f(&e);
    return;
  }
  if (v && v->is_string()) return;
  throw JsTypeError(std::string(what) + " is not iterable");
}

// Object.keys(v) with the values, in JavaScript's order: integer-like keys ascending, then the
// others in insertion order. Arrays give their indices; strings their UTF-16 indices (value
// undefined here); other primitives nothing.
class KeyList {
 public:
  explicit KeyList(Ref v);
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::string_view key(std::size_t i) const noexcept;
  [[nodiscard]] Ref value(std::size_t i) const noexcept;

 private:
  Ref v_ = nullptr;
  std::size_t count_ = 0;
  bool reordered_ = false;
  std::vector<std::pair<std::string_view, Ref>> order_;  // only when reordered
  mutable std::string index_text_;                       // arrays and strings
};

// SameValueZero keys for Set/Map semantics over JSON values. Strings map to themselves with a
// leading 's'; other values to a tagged spelling; objects and arrays to their identity.
[[nodiscard]] std::string same_value_key(Ref v);

// A Map keyed by SameValueZero, O(1) for string keys without building a key string.
template <class T>
class SameValueMap {
 public:
  void set(Ref key, T value) {
    if (key && key->is_string()) {
      strings_.set(key->string(), std::move(value));
    } else {
      others_.insert_or_assign(same_value_key(key), std::move(value));
    }
  }
  void set_if_absent(Ref key, T value) {
    if (key && key->is_string()) {
      strings_.set_if_absent(key->string(), std::move(value));
    } else {
      others_.try_emplace(same_value_key(key), std::move(value));
    }
  }
  [[nodiscard]] const T* find(Ref key) const {
    if (key && key->is_string()) return find_string(key->string());
    const auto it = others_.find(same_value_key(key));
    return it == others_.end() ? nullptr : &it->second;
  }
  [[nodiscard]] const T* find_string(std::string_view key) const { return strings_.find(key); }
  [[nodiscard]] bool empty() const noexcept { return strings_.size() == 0 && others_.empty(); }
  void reserve(std::size_t n) { strings_.reserve(n); }

 private:
  FlatStringMap<T> strings_;
  std::unordered_map<std::string, T> others_;
};

// base[key] in O(1) after an O(n) index of an object (small objects are scanned instead).
class Lookup {
 public:
  Lookup() = default;
  explicit Lookup(Ref base);
  [[nodiscard]] Ref find(std::string_view key) const noexcept;
  // base[v]: the property key is String(v).
  [[nodiscard]] Ref find_value(Ref v) const;

 private:
  Ref base_ = nullptr;
  bool indexed_ = false;
  FlatStringMap<Ref> index_;
};

// A value taking part in arithmetic, typed as JavaScript would see it.
struct Val {
  enum class Kind : unsigned char {
    Number,     // typeof "number"
    Coercible,  // undefined, null, boolean: `+` with a number stays numeric
    Text,       // string, array, object: `+` concatenates, the result is a string
  };
  Kind kind = Kind::Number;
  double num = 0;          // the value (Number) or its ToNumber (Coercible)
  bool is_null = false;    // JSON null: echoed as null (our NaN) where the reference echoes the raw value

  static Val of_number(double d) noexcept { return {Kind::Number, d}; }
  static Val of(Ref v) noexcept;
  [[nodiscard]] bool finite_number() const noexcept { return kind == Kind::Number && std::isfinite(num); }
  // What a failure shows for it: numbers as themselves, null as null (NaN renders as null),
  // anything else (undefined, a boolean, a string) is left out.
  [[nodiscard]] std::optional<double> output() const noexcept {
    if (kind == Kind::Number) return num;
    if (is_null) return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
  }
};

// a + b
[[nodiscard]] Val add(Val a, Val b) noexcept;

}  // namespace reconcile::rules::core
