#pragma once
// The validator as it was before schemas were compiled (libcore/schema_registry/validator.cpp
// up to the `validator` branch): it walks the schema document for every value. Kept, unchanged,
// as the oracle of the differential test (compiled_schema_differential_test.cpp) and of the
// old-vs-new benchmark (tests/bench/receipt_validate_bench.cpp). Test-only; not in any library.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/json_input.hpp"
#include "common/json_string.hpp"

// GCC 12 warns (-Wrestrict, a false positive) on the std::string::replace in resolve().
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

namespace schema_registry::legacy {

using ojson = nlohmann::ordered_json;

namespace detail {



// JavaScript-style deep equality: numbers by value, objects regardless of key order.
inline bool json_equal(const ojson& a, const ojson& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [k, v] : a.items()) {
      const auto it = b.find(k);
      if (it == b.end() || !json_equal(v, *it)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!json_equal(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

inline bool is_integer(const ojson& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::trunc(d) == d;
}

inline bool has_type(const ojson& v, const std::string& t) {
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  if (t == "string") return v.is_string();
  if (t == "boolean") return v.is_boolean();
  if (t == "null") return v.is_null();
  if (t == "number") return v.is_number();
  if (t == "integer") return is_integer(v);
  return false;
}

// The pair Ajv reports for uniqueItems, in its (j, i) message order. Ajv scans from the end:
// when the items schema declares only scalar types it keeps the nearest later index of each
// value (skipping items of other types), otherwise it compares each item with every earlier one.
inline std::optional<std::pair<std::size_t, std::size_t>> first_duplicate(const ojson& s, const ojson& v) {
  std::vector<std::string> types;
  if (auto items = s.find("items"); items != s.end() && items->is_object()) {
    if (auto t = items->find("type"); t != items->end()) {
      if (t->is_string()) types.push_back(t->get<std::string>());
      if (t->is_array())
        for (const auto& one : *t)
          if (one.is_string()) types.push_back(one.get<std::string>());
    }
  }
  const bool scalar = !types.empty() && std::all_of(types.begin(), types.end(), [](const std::string& t) {
    return t == "string" || t == "number" || t == "integer" || t == "boolean" || t == "null";
  });
  const std::size_t n = v.size();
  if (scalar) {
    auto typed = [&](const ojson& x) {
      return std::any_of(types.begin(), types.end(), [&](const std::string& t) { return has_type(x, t); });
    };
    for (std::size_t i = n; i-- > 0;) {
      if (!typed(v[i])) continue;
      for (std::size_t k = i + 1; k < n; ++k)
        if (typed(v[k]) && json_equal(v[i], v[k])) return std::make_pair(k, i);
    }
    return std::nullopt;
  }
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = i; j-- > 0;)
      if (json_equal(v[i], v[j])) return std::make_pair(j, i);
  return std::nullopt;
}

inline std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

inline std::string number_text(const ojson& v) {
  if (is_integer(v) && std::fabs(v.get<double>()) < 1e15) return std::to_string(static_cast<long long>(v.get<double>()));
  return v.dump();
}

inline const std::regex& compiled(const std::string& pattern) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<std::regex>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[pattern];
  if (!slot) slot = std::make_unique<std::regex>(pattern, std::regex::ECMAScript);
  return *slot;
}

class Validator {
 public:
  Validator(const ojson& root, std::size_t max_errors) : root_(root), max_(max_errors) {}

  // Returns true when `v` is valid against `s`; records errors unless quiet.
  bool check(const ojson& s, const ojson& v, const std::string& path) {
    if (s.is_boolean()) {
      if (s.get<bool>()) return true;
      return fail(path, "boolean schema is false");
    }
    if (!s.is_object()) return true;
    bool ok = true;
    auto stop = [&] { return !ok && full(); };

    if (const auto r = s.find("$ref"); r != s.end()) {
      const ojson* target = resolve(r->get<std::string>());
      if (target == nullptr) return fail(path, "can't resolve reference " + r->get<std::string>());
      ok = check(*target, v, path) && ok;
      if (stop()) return false;
    }
    if (const auto t = s.find("type"); t != s.end()) {
      bool match = false;
      std::string names;
      if (t->is_string()) {
        match = has_type(v, t->get<std::string>());
        names = t->get<std::string>();
      } else {
        for (const auto& one : *t) {
          match = match || has_type(v, one.get<std::string>());
          names += (names.empty() ? "" : ",") + one.get<std::string>();
        }
      }
      if (!match) return fail(path, "must be " + names);
    }
    if (const auto c = s.find("const"); c != s.end() && !json_equal(*c, v)) {
      ok = fail(path, "must be equal to constant " + c->dump());
      if (stop()) return false;
    }
    if (const auto e = s.find("enum"); e != s.end()) {
      bool any = false;
      for (const auto& option : *e) any = any || json_equal(option, v);
      if (!any) ok = fail(path, "must be equal to one of the allowed values");
      if (stop()) return false;
    }
    if (v.is_number()) ok = numeric(s, v, path) && ok;
    if (stop()) return false;
    if (v.is_string()) ok = text(s, v, path) && ok;
    if (stop()) return false;
    if (v.is_array()) ok = array(s, v, path) && ok;
    if (stop()) return false;
    if (v.is_object()) ok = object(s, v, path) && ok;
    if (stop()) return false;
    ok = combinators(s, v, path) && ok;
    return ok;
  }

  std::vector<common::Error> take() { return std::move(errors_); }

 private:
  bool full() const { return quiet_ == 0 && errors_.size() >= max_; }

  bool fail(const std::string& path, std::string message) {
    if (quiet_ == 0 && errors_.size() < max_) errors_.push_back(common::Error::malformed(std::move(message), {"", 0, path}));
    return false;
  }

  // Runs a sub-check without recording its errors (for anyOf, oneOf, not, if).
  bool probe(const ojson& s, const ojson& v, const std::string& path) {
    ++quiet_;
    const bool ok = check(s, v, path);
    --quiet_;
    return ok;
  }

  const ojson* resolve(const std::string& ref) const {
    if (ref == "#") return &root_;
    if (!ref.starts_with("#/")) return nullptr;
    const ojson* node = &root_;
    std::size_t pos = 2;
    while (pos <= ref.size()) {
      std::size_t next = ref.find('/', pos);
      if (next == std::string::npos) next = ref.size();
      std::string token = ref.substr(pos, next - pos);
      for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
        token.replace(i, 2, token.compare(i, 2, "~1") == 0 ? "/" : "~");
      }
      if (node->is_object()) {
        const auto it = node->find(token);
        if (it == node->end()) return nullptr;
        node = &*it;
      } else if (node->is_array()) {
        const std::size_t idx = std::stoul(token);
        if (idx >= node->size()) return nullptr;
        node = &(*node)[idx];
      } else {
        return nullptr;
      }
      pos = next + 1;
    }
    return node;
  }

  bool numeric(const ojson& s, const ojson& v, const std::string& path) {
    const double x = v.get<double>();
    if (auto m = s.find("minimum"); m != s.end() && !(x >= m->get<double>()))
      return fail(path, "must be >= " + number_text(*m));
    if (auto m = s.find("maximum"); m != s.end() && !(x <= m->get<double>()))
      return fail(path, "must be <= " + number_text(*m));
    if (auto m = s.find("exclusiveMinimum"); m != s.end() && !(x > m->get<double>()))
      return fail(path, "must be > " + number_text(*m));
    if (auto m = s.find("exclusiveMaximum"); m != s.end() && !(x < m->get<double>()))
      return fail(path, "must be < " + number_text(*m));
    if (auto m = s.find("multipleOf"); m != s.end()) {
      const double q = x / m->get<double>();
      if (!std::isfinite(q) || std::trunc(q) != q) return fail(path, "must be multiple of " + number_text(*m));
    }
    return true;
  }

  bool text(const ojson& s, const ojson& v, const std::string& path) {
    const std::string& str = v.get_ref<const std::string&>();
    if (auto m = s.find("minLength"); m != s.end() && code_points(str) < m->get<std::size_t>())
      return fail(path, "must NOT have fewer than " + number_text(*m) + " characters");
    if (auto m = s.find("maxLength"); m != s.end() && code_points(str) > m->get<std::size_t>())
      return fail(path, "must NOT have more than " + number_text(*m) + " characters");
    if (auto p = s.find("pattern"); p != s.end()) {
      const std::string& pattern = p->get_ref<const std::string&>();
      if (!std::regex_search(str, compiled(pattern))) {
        std::string quoted;
        common::append_json_string(quoted, pattern);
        return fail(path, "must match pattern " + quoted);
      }
    }
    return true;
  }

  bool array(const ojson& s, const ojson& v, const std::string& path) {
    bool ok = true;
    if (auto m = s.find("minItems"); m != s.end() && v.size() < m->get<std::size_t>())
      return fail(path, "must NOT have fewer than " + number_text(*m) + " items");
    if (auto m = s.find("maxItems"); m != s.end() && v.size() > m->get<std::size_t>())
      return fail(path, "must NOT have more than " + number_text(*m) + " items");
    if (auto u = s.find("uniqueItems"); u != s.end() && u->get<bool>()) {
      if (auto dup = first_duplicate(s, v)) {
        return fail(path, "must NOT have duplicate items (items ## " + std::to_string(dup->first) + " and " +
                              std::to_string(dup->second) + " are identical)");
      }
    }
    std::size_t first = 0;
    if (auto p = s.find("prefixItems"); p != s.end()) {
      for (; first < p->size() && first < v.size(); ++first) {
        ok = check((*p)[first], v[first], path + "/" + std::to_string(first)) && ok;
        if (!ok && full()) return false;
      }
    }
    if (auto items = s.find("items"); items != s.end()) {
      for (std::size_t i = first; i < v.size(); ++i) {
        ok = check(*items, v[i], path + "/" + std::to_string(i)) && ok;
        if (!ok && full()) return false;
      }
    }
    if (auto c = s.find("contains"); c != s.end()) {
      bool any = false;
      for (std::size_t i = 0; i < v.size() && !any; ++i) any = probe(*c, v[i], path + "/" + std::to_string(i));
      if (!any) return fail(path, "must contain at least 1 valid item(s)");
    }
    return ok;
  }

  bool object(const ojson& s, const ojson& v, const std::string& path) {
    bool ok = true;
    if (auto r = s.find("required"); r != s.end()) {
      for (const auto& name : *r) {
        if (!v.contains(name.get<std::string>()))
          return fail(path, "must have required property '" + name.get<std::string>() + "'");
      }
    }
    if (auto d = s.find("dependentRequired"); d != s.end()) {
      for (const auto& [key, needs] : d->items()) {
        if (!v.contains(key)) continue;
        for (const auto& n : needs)
          if (!v.contains(n.get<std::string>()))
            return fail(path, "must have property " + n.get<std::string>() + " when property " + key + " is present");
      }
    }
    if (auto m = s.find("minProperties"); m != s.end() && v.size() < m->get<std::size_t>())
      return fail(path, "must NOT have fewer than " + number_text(*m) + " properties");
    if (auto m = s.find("maxProperties"); m != s.end() && v.size() > m->get<std::size_t>())
      return fail(path, "must NOT have more than " + number_text(*m) + " properties");
    const auto props = s.find("properties");
    const auto patterns = s.find("patternProperties");
    const auto additional = s.find("additionalProperties");
    const auto names = s.find("propertyNames");
    for (const auto& [key, value] : v.items()) {
      const std::string child = path + "/" + common::json_pointer_token(key);
      if (names != s.end()) {
        if (!probe(*names, ojson(key), path)) return fail(path, "property name '" + key + "' is invalid");
      }
      bool matched = false;
      if (props != s.end() && props->is_object()) {
        if (auto p = props->find(key); p != props->end()) {
          matched = true;
          ok = check(*p, value, child) && ok;
          if (!ok && full()) return false;
        }
      }
      if (patterns != s.end() && patterns->is_object()) {
        for (const auto& [pattern, sub] : patterns->items()) {
          if (std::regex_search(key, compiled(pattern))) {
            matched = true;
            ok = check(sub, value, child) && ok;
            if (!ok && full()) return false;
          }
        }
      }
      if (!matched && additional != s.end()) {
        if (additional->is_boolean()) {
          if (!additional->get<bool>()) {
            ok = fail(path, "must NOT have additional properties ('" + key + "')");
            if (full()) return false;
          }
        } else {
          ok = check(*additional, value, child) && ok;
          if (!ok && full()) return false;
        }
      }
    }
    return ok;
  }

  bool combinators(const ojson& s, const ojson& v, const std::string& path) {
    bool ok = true;
    if (auto all = s.find("allOf"); all != s.end()) {
      for (const auto& sub : *all) {
        ok = check(sub, v, path) && ok;
        if (!ok && full()) return false;
      }
    }
    if (auto any = s.find("anyOf"); any != s.end()) {
      bool matched = false;
      for (const auto& sub : *any) matched = matched || probe(sub, v, path);
      if (!matched) {
        ok = fail(path, "must match a schema in anyOf");
        if (full()) return false;
      }
    }
    if (auto one = s.find("oneOf"); one != s.end()) {
      int matches = 0;
      for (const auto& sub : *one) matches += probe(sub, v, path) ? 1 : 0;
      if (matches != 1) {
        ok = fail(path, "must match exactly one schema in oneOf");
        if (full()) return false;
      }
    }
    if (auto n = s.find("not"); n != s.end() && probe(*n, v, path)) {
      ok = fail(path, "must NOT be valid");
      if (full()) return false;
    }
    if (auto cond = s.find("if"); cond != s.end()) {
      const bool holds = probe(*cond, v, path);
      const auto branch = s.find(holds ? "then" : "else");
      if (branch != s.end() && !probe(*branch, v, path)) {
        check(*branch, v, path);  // record the branch's own reason
        ok = fail(path, std::string("must match \"") + (holds ? "then" : "else") + "\" schema");
        if (full()) return false;
      }
    }
    return ok;
  }

  const ojson& root_;
  std::size_t max_;
  int quiet_ = 0;
  std::vector<common::Error> errors_;
};

}  // namespace detail

inline std::vector<common::Error> validate(const ojson& schema, const ojson& instance, std::size_t max_errors = 1) {
  detail::Validator v(schema, max_errors == 0 ? 1 : max_errors);
  v.check(schema, instance, "");
  return v.take();
}

}  // namespace schema_registry::legacy

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
