#include "reconcile/rules/core_js.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/js_json_text.hpp"

namespace reconcile::rules::core {
namespace {

// JavaScript's StrWhiteSpaceChar set, as UTF-8: the ASCII ones, NBSP, BOM, the line and
// paragraph separators and Unicode's Space_Separator characters.
std::size_t whitespace_at(std::string_view s, std::size_t i) noexcept {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d)) return 1;
  auto starts = [&](std::string_view p) { return s.substr(i, p.size()) == p; };
  if (starts("\xc2\xa0")) return 2;                                         // U+00A0
  if (starts("\xef\xbb\xbf")) return 3;                                     // U+FEFF
  if (starts("\xe1\x9a\x80")) return 3;                                     // U+1680
  if (starts("\xe2\x80\xa8") || starts("\xe2\x80\xa9")) return 3;           // U+2028/9
  if (starts("\xe2\x80\xaf") || starts("\xe2\x81\x9f") || starts("\xe3\x80\x80")) return 3;
  if (i + 2 < s.size() && c == 0xe2 && static_cast<unsigned char>(s[i + 1]) == 0x80) {
    const auto d = static_cast<unsigned char>(s[i + 2]);
    if (d >= 0x80 && d <= 0x8a) return 3;  // U+2000..U+200A
  }
  return 0;
}

std::string_view trim(std::string_view s) noexcept {
  std::size_t b = 0;
  while (b < s.size()) {
    const std::size_t n = whitespace_at(s, b);
    if (n == 0) break;
    b += n;
  }
  std::size_t e = s.size();
  while (e > b) {
    // Step back over one character: find its start.
    std::size_t start = e - 1;
    while (start > b && (static_cast<unsigned char>(s[start]) & 0xc0) == 0x80) --start;
    if (whitespace_at(s, start) != e - start) break;
    e = start;
  }
  return s.substr(b, e - b);
}

double radix_number(std::string_view digits, int radix) noexcept {
  if (digits.empty()) return kNaN;
  double v = 0;
  for (char ch : digits) {
    int d = -1;
    if (ch >= '0' && ch <= '9') d = ch - '0';
    if (ch >= 'a' && ch <= 'z') d = ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'Z') d = ch - 'A' + 10;
    if (d < 0 || d >= radix) return kNaN;
    v = v * radix + d;  // exact below 2^53; larger hex literals are a curiosity here
  }
  return v;
}

void join_into(Ref v, std::string& out, int depth);

void to_string_into(Ref v, std::string& out, int depth) {
  if (!v) {
    out += "undefined";
  } else if (v->is_string()) {
    out += v->string();
  } else if (v->is_number()) {
    out += js_number(v->get<double>());
  } else if (v->is_boolean()) {
    out += v->get<bool>() ? "true" : "false";
  } else if (v->is_null()) {
    out += "null";
  } else if (v->is_array()) {
    join_into(v, out, depth);
  } else {
    out += "[object Object]";
  }
}

// Array.prototype.join(","): null and undefined elements print as empty.
void join_into(Ref v, std::string& out, int depth) {
  if (depth > 64) return;  // cyclic in JS is impossible from JSON; deep nesting is bounded
  bool first = true;
  for (const auto& e : *v) {
    if (!first) out += ',';
    first = false;
    if (!e.is_null()) to_string_into(&e, out, depth + 1);
  }
}

}  // namespace

std::optional<std::size_t> array_index(std::string_view key) noexcept {
  if (key.empty() || key.size() > 10) return std::nullopt;
  if (key.size() > 1 && key[0] == '0') return std::nullopt;
  std::uint64_t v = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v >= 4294967295ULL) return std::nullopt;
  return static_cast<std::size_t>(v);
}

Ref find_key(const Json& object, std::string_view key) noexcept {
  return object.find(key);  // a document holds each key once: the last written, as JSON.parse
}

Ref lookup(Ref base, std::string_view key) noexcept {
  if (!base) return nullptr;
  if (base->is_object()) return find_key(*base, key);
  if (base->is_array()) {
    const auto i = array_index(key);
    return i && *i < base->size() ? &(*base)[*i] : nullptr;
  }
  return nullptr;
}

Ref get(Ref base, std::string_view key) {
  if (!base || base->is_null()) {
    throw JsTypeError("Cannot read properties of " + std::string(base ? "null" : "undefined") + " (reading '" +
                      std::string(key) + "')");
  }
  return lookup(base, key);
}

bool truthy(Ref v) noexcept {
  if (!v || v->is_null()) return false;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number()) {
    const double d = v->get<double>();
    return d != 0 && !std::isnan(d);
  }
  if (v->is_string()) return !v->string().empty();
  return true;
}

bool strict_equals(Ref a, Ref b) noexcept {
  if (!a || !b) return a == b;
  if (a->is_number() && b->is_number()) return a->get<double>() == b->get<double>();
  if (a->is_string() && b->is_string()) return a->string() == b->string();
  if (a->is_boolean() && b->is_boolean()) return a->get<bool>() == b->get<bool>();
  if (a->is_null() && b->is_null()) return true;
  return a == b;  // objects and arrays: identity
}

double string_to_number(std::string_view raw) noexcept {
  const std::string_view s = trim(raw);
  if (s.empty()) return 0;
  if (s.size() > 2 && s[0] == '0') {
    const char p = s[1];
    if (p == 'x' || p == 'X') return radix_number(s.substr(2), 16);
    if (p == 'o' || p == 'O') return radix_number(s.substr(2), 8);
    if (p == 'b' || p == 'B') return radix_number(s.substr(2), 2);
  }
  std::size_t i = 0;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  const std::string_view body = s.substr(i);
  if (body == "Infinity") return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  // StrUnsignedDecimalLiteral: digits [. digits] | . digits, then an optional exponent.
  std::size_t j = 0;
  std::size_t int_digits = 0, frac_digits = 0;
  while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j, ++int_digits;
  if (j < body.size() && body[j] == '.') {
    ++j;
    while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return kNaN;
  if (j < body.size() && (body[j] == 'e' || body[j] == 'E')) {
    std::size_t k = j + 1;
    if (k < body.size() && (body[k] == '+' || body[k] == '-')) ++k;
    std::size_t exp_digits = 0;
    while (k < body.size() && body[k] >= '0' && body[k] <= '9') ++k, ++exp_digits;
    if (exp_digits == 0) return kNaN;
    j = k;
  }
  if (j != body.size()) return kNaN;
  const std::string text(s);  // strtod needs a terminator; glibc's strtod rounds correctly
  return std::strtod(text.c_str(), nullptr);
}

double to_number(Ref v) noexcept {
  if (!v) return kNaN;
  if (v->is_number()) return v->get<double>();
  if (v->is_null()) return 0;
  if (v->is_boolean()) return v->get<bool>() ? 1 : 0;
  if (v->is_string()) return string_to_number(v->string());
  if (v->is_array()) {
    if (v->empty()) return 0;
    try {
      std::string joined;
      join_into(v, joined, 0);
      return string_to_number(joined);
    } catch (...) {
      return kNaN;
    }
  }
  return kNaN;  // "[object Object]"
}

std::string to_string(Ref v) {
  std::string out;
  to_string_into(v, out, 0);
  return out;
}

std::string js_typeof(Ref v) {
  if (!v) return "undefined";
  if (v->is_boolean()) return "boolean";
  if (v->is_number()) return "number";
  if (v->is_string()) return "string";
  return "object";
}

std::string js_stringify_value(const Json& v) { return common::js_stringify(to_tree(v)); }

std::string js_stringify_text(std::string_view s) { return common::js_stringify(Tree(std::string(s))); }

KeyList::KeyList(Ref v) : v_(v) {
  if (!v) return;
  if (v->is_array()) {
    count_ = v->size();
    return;
  }
  if (v->is_string()) {
    // UTF-16 length: every byte that does not continue a sequence, plus one more for 4-byte ones.
    for (unsigned char c : v->string()) {
      if ((c & 0xc0) != 0x80) ++count_;
      if (c >= 0xf0) ++count_;
    }
    return;
  }
  if (!v->is_object()) return;
  const auto& map = v->members();
  count_ = map.size();
  bool any_index = false;
  for (const auto& [k, _] : map) {
    if (array_index(k)) {
      any_index = true;
      break;
    }
  }
  if (!any_index) return;
  reordered_ = true;
  order_.reserve(map.size());
  for (const auto& [k, val] : map) {
    if (array_index(k)) order_.emplace_back(k, &val);
  }
  std::sort(order_.begin(), order_.end(),
            [](const auto& a, const auto& b) { return *array_index(a.first) < *array_index(b.first); });
  for (const auto& [k, val] : map) {
    if (!array_index(k)) order_.emplace_back(k, &val);
  }
}

std::string_view KeyList::key(std::size_t i) const noexcept {
  if (v_->is_object()) {
    if (reordered_) return order_[i].first;
    return std::next(v_->members().begin(), static_cast<std::ptrdiff_t>(i))->first;
  }
  index_text_ = std::to_string(i);
  return index_text_;
}

Ref KeyList::value(std::size_t i) const noexcept {
  if (v_->is_object()) {
    if (reordered_) return order_[i].second;
    return &std::next(v_->members().begin(), static_cast<std::ptrdiff_t>(i))->second;
  }
  if (v_->is_array()) return &(*v_)[i];
  return nullptr;
}

std::string same_value_key(Ref v) {
  std::string key;
  if (!v) {
    key.push_back('u');
  } else if (v->is_string()) {
    const auto& s = v->string();
    key.reserve(s.size() + 1);
    key.push_back('s');
    key.append(s);
  } else if (v->is_number()) {
    double d = v->get<double>();
    if (d == 0) d = 0;  // +0 and -0 are the same key
    char buf[sizeof d];
    std::memcpy(buf, &d, sizeof d);
    key.push_back('n');
    key.append(buf, sizeof d);
  } else if (v->is_boolean()) {
    key.push_back('b');
    key.push_back(v->get<bool>() ? 't' : 'f');
  } else if (v->is_null()) {
    key.push_back('z');
  } else {
    char buf[sizeof v];
    std::memcpy(buf, &v, sizeof v);
    key.push_back('o');
    key.append(buf, sizeof v);
  }
  return key;
}

Lookup::Lookup(Ref base) : base_(base) {
  if (base && base->is_object() && base->size() > 12) {
    const auto& map = base->members();
    index_.reserve(map.size());
    for (const auto& [k, v] : map) index_.set(k, &v);
    indexed_ = true;
  }
}

Ref Lookup::find(std::string_view key) const noexcept {
  if (indexed_) {
    const Ref* hit = index_.find(key);
    return hit ? *hit : nullptr;
  }
  return lookup(base_, key);
}

Ref Lookup::find_value(Ref v) const {
  if (v && v->is_string()) return find(v->string());
  return find(to_string(v));
}

Val Val::of(Ref v) noexcept {
  if (!v) return {Kind::Coercible, kNaN};
  if (v->is_number()) return {Kind::Number, v->get<double>()};
  if (v->is_null()) return {Kind::Coercible, 0, true};
  if (v->is_boolean()) return {Kind::Coercible, v->get<bool>() ? 1.0 : 0.0};
  return {Kind::Text, kNaN};
}

Val add(Val a, Val b) noexcept {
  if (a.kind == Val::Kind::Text || b.kind == Val::Kind::Text) return {Val::Kind::Text, kNaN};
  return Val::of_number(a.num + b.num);
}

}  // namespace reconcile::rules::core
