#include "reconcile/rules/core_rules.hpp"

#include <limits>
#include <unordered_map>

namespace reconcile::rules::core {
namespace {

std::string describe(Val v) {
  if (v.kind == Val::Kind::Number) return js_number(v.num);
  return v.kind == Val::Kind::Text ? "<string>" : js_number(v.num);
}

std::string cascade_key(std::string_view string_id) {
  std::string key;
  key.reserve(string_id.size() + 1);
  key += 's';
  key += string_id;
  return key;
}

}  // namespace

ToleranceCheck check(Val a, Val b, Tolerance t) noexcept {
  if (a.kind != Val::Kind::Number || b.kind != Val::Kind::Number) return {false, kNaN, 0, false};
  return check_tolerance(a.num, b.num, t);
}

ToleranceCheck check_sum(Val sum, Val stored, Tolerance t, bool terms_scaled, double terms) noexcept {
  if (!terms_scaled) return check(sum, stored, t);
  if (sum.kind != Val::Kind::Number || stored.kind != Val::Kind::Number) return {false, kNaN, 0, false};
  return check_tolerance(sum.num, stored.num, t, terms);
}

double terms_of(Val a, Val b) noexcept {
  if (a.kind != Val::Kind::Number || b.kind != Val::Kind::Number) return kNaN;
  return std::fabs(a.num) + std::fabs(b.num);
}

std::optional<std::string> parameter_id(Ref v) {
  if (v && v->is_string()) return std::string(v->string());
  return std::nullopt;
}

void record(CascadeTracker& cascades, int rule, Ref parameter_id) {
  if (!parameter_id) return;
  cascades.record(rule, same_value_key(parameter_id));
}

void record(CascadeTracker& cascades, int rule, std::string_view parameter_id) {
  cascades.record(rule, cascade_key(parameter_id));
}

std::optional<int> prior(const CascadeTracker& cascades, Ref parameter_id, std::initializer_list<int> rules) {
  if (!parameter_id) return std::nullopt;
  return cascades.prior(same_value_key(parameter_id), rules);
}

std::optional<int> prior(const CascadeTracker& cascades, std::string_view parameter_id,
                         std::initializer_list<int> rules) {
  return cascades.prior(cascade_key(parameter_id), rules);
}

Failure structural(std::optional<std::string> parameter_id, std::string field_path, std::string message) {
  Failure f;
  f.rule = 0;
  f.parameter_id = std::move(parameter_id);
  f.field_path = std::move(field_path);
  f.stored = 0;
  f.recomputed = 0;
  f.delta = 0;
  f.tolerance = 0;
  f.message = std::move(message);
  return f;
}

Failure numeric(int rule, std::optional<std::string> parameter_id, std::string field_path, Val stored, Val recomputed,
                const ToleranceCheck& c) {
  Failure f;
  f.rule = rule;
  f.parameter_id = std::move(parameter_id);
  f.stored = stored.output();
  f.recomputed = recomputed.output();
  if (c.finite) {
    f.delta = c.delta;
    f.tolerance = c.applied;
  } else {
    f.delta = kNaN;
    f.tolerance = 0;
    f.message = "Non-finite arithmetic detected at " + field_path + " (Rule " + std::to_string(rule) +
                "): recomputed=" + describe(recomputed) + ", stored=" + describe(stored) +
                ". Check upstream factors for NaN/Infinity.";
  }
  f.field_path = std::move(field_path);
  return f;
}

std::vector<Factor> factor_list(Ref factors) {
  std::vector<Factor> out;
  if (!is_array(factors)) return out;
  out.reserve(factors->size());
  for (const auto& e : *factors) {
    Factor f;
    if (const auto name = as_string(lookup(&e, "name"))) f.name = *name;
    if (const auto from = as_string(lookup(&e, "from"))) f.from = *from;
    const Ref value = lookup(&e, "value");
    f.value = is_number(value) ? number(value) : kNaN;
    out.push_back(std::move(f));
  }
  return out;
}

Val multiply_left_to_right(const Json& factors, KeyHint& value_key) {
  const Ref first = value_key.get(&factors[0]);
  if (factors.size() == 1) return Val::of(first);  // the loop never runs: the raw value is the product
  double product = to_number(first);
  for (std::size_t j = 1; j < factors.size(); ++j) product = product * to_number(value_key.get(&factors[j]));
  return Val::of_number(product);
}

Val multiply_left_to_right(const Json& factors) {
  KeyHint value_key("value");
  return multiply_left_to_right(factors, value_key);
}

Val sum_in_order(const Json& items, const Json& order, std::string_view key_name, std::string_view value_name,
                 double* terms) {
  if (terms) *terms = 0;
  if (order.empty()) return Val::of_number(0);
  // The first item per key, for orders long enough that a scan per entry would be quadratic.
  // Objects and arrays are === only to themselves, so an order entry that is one matches nothing.
  const bool indexed = order.size() > 8 && items.size() > 8;
  FlatStringMap<std::size_t> first_by_string;
  std::unordered_map<std::string, std::size_t> first_by_other;
  if (indexed) {
    first_by_string.reserve(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) {
      const Ref key = get(&items[k], key_name);
      if (is_string(key)) {
        first_by_string.set_if_absent(key->string(), k);
      } else if (!is_object(key)) {
        first_by_other.try_emplace(same_value_key(key), k);
      }
    }
  }
  Val sum;
  bool first = true;
  for (const auto& entry : order) {
    Ref item = nullptr;
    if (indexed) {
      if (entry.is_string()) {
        if (const auto* k = first_by_string.find(entry.string())) item = &items[*k];
      } else if (!entry.is_object() && !entry.is_array()) {
        const auto it = first_by_other.find(same_value_key(&entry));
        if (it != first_by_other.end()) item = &items[it->second];
      }
    } else {
      for (const auto& candidate : items) {
        if (strict_equals(get(&candidate, key_name), &entry)) {
          item = &candidate;
          break;
        }
      }
    }
    if (!item) return Val::of_number(kNaN);
    const Val v = Val::of(get(item, value_name));
    if (terms) *terms += std::fabs(v.num);
    sum = first ? v : add(sum, v);
    first = false;
  }
  return sum;
}

std::optional<double> resolve_fast(const Json& root, std::string_view path) noexcept {
  if (path.empty()) return std::nullopt;
  const Json* cursor = &root;
  std::size_t pos = 0;
  // Validate every segment first, as the reference tokenizes the whole path before walking it;
  // the outcome (found or not) is the same either way, so walk while validating.
  while (true) {
    const std::size_t dot = path.find('.', pos);
    const std::string_view part = path.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    if (part.empty()) return std::nullopt;
    const std::size_t bracket = part.find('[');
    const std::string_view head = part.substr(0, bracket);
    if (head.empty() || head.find(']') != std::string_view::npos) return std::nullopt;
    if (!cursor || !cursor->is_object()) return std::nullopt;
    cursor = find_key(*cursor, head);
    if (!cursor) return std::nullopt;
    if (bracket != std::string_view::npos) {
      std::string_view tail = part.substr(bracket);
      while (!tail.empty()) {
        if (tail[0] != '[') return std::nullopt;
        const std::size_t close = tail.find(']');
        if (close == std::string_view::npos || close < 2) return std::nullopt;
        std::size_t index = 0;
        bool overflow = false;
        for (std::size_t j = 1; j < close; ++j) {
          if (tail[j] < '0' || tail[j] > '9') return std::nullopt;
          if (index > (std::numeric_limits<std::size_t>::max() - 9) / 10) overflow = true;
          if (!overflow) index = index * 10 + static_cast<std::size_t>(tail[j] - '0');
        }
        if (!cursor->is_array() || overflow || index >= cursor->size()) return std::nullopt;
        cursor = &(*cursor)[index];
        tail = tail.substr(close + 1);
      }
    }
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  if (!cursor->is_number()) return std::nullopt;
  const double v = cursor->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

OptimizerConfig read_optimizer_config(const Json& receipt) noexcept {
  OptimizerConfig out;
  const Ref oc = lookup(&receipt, "optimizer_config");
  if (!is_object(oc)) return out;
  const Ref name = lookup(oc, "name");
  if (!is_string(name)) return out;
  out.present = true;
  out.name = name->string();
  out.weight_decay = lookup(oc, "weight_decay");
  return out;
}

Ref authoring_state(const Json& receipt) noexcept { return opt(lookup(&receipt, "fixture_status"), "authoring_state"); }

}  // namespace reconcile::rules::core
