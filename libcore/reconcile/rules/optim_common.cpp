#include "reconcile/rules/optim_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "receipt/engine/fdlibm.hpp"
#include "reconcile/rules/core_js.hpp"

namespace reconcile::rules {

std::optional<OptimizerConfigView> read_optimizer_config(const Json& receipt) {
  const Json* oc = object_member(receipt, "optimizer_config");
  if (!oc) return std::nullopt;
  const auto name = string_member(*oc, "name");
  if (!name) return std::nullopt;
  OptimizerConfigView v;
  v.name = std::string(*name);
  v.learning_rate = number_member(*oc, "learning_rate");
  v.beta1 = number_member(*oc, "beta1");
  v.beta2 = number_member(*oc, "beta2");
  v.epsilon = number_member(*oc, "epsilon");
  v.weight_decay = number_member(*oc, "weight_decay");
  v.t = number_member(*oc, "t");
  v.momentum = number_member(*oc, "momentum");
  v.nesterov = member(*oc, "nesterov");
  v.dampening = member(*oc, "dampening");
  return v;
}

double sgd_coupled_weight_decay(const std::optional<OptimizerConfigView>& oc) {
  if (!oc || (oc->name != "sgd" && oc->name != "sgd_momentum")) return 0;
  const auto wd = oc->weight_decay;
  if (!wd || !std::isfinite(*wd) || *wd < 0) return 0;
  return *wd;
}

std::vector<KeyedMember> js_members(const Json* obj) {
  std::vector<KeyedMember> out;
  if (!obj || !obj->is_object()) return out;
  const auto& map = obj->members();
  out.reserve(map.size());
  std::unordered_map<std::string_view, std::size_t> position;
  position.reserve(map.size());
  bool any_index = false;
  for (const auto& [k, v] : map) {
    const auto [it, inserted] = position.emplace(std::string_view(k), out.size());
    if (inserted) {
      out.emplace_back(std::string_view(k), &v);
      any_index = any_index || core::array_index(k).has_value();
    } else {
      out[it->second].second = &v;
    }
  }
  if (any_index) {
    std::stable_partition(out.begin(), out.end(), [](const KeyedMember& m) { return core::array_index(m.first).has_value(); });
    const auto end_index = std::find_if(out.begin(), out.end(), [](const KeyedMember& m) { return !core::array_index(m.first); });
    std::stable_sort(out.begin(), end_index,
                     [](const KeyedMember& a, const KeyedMember& b) { return *core::array_index(a.first) < *core::array_index(b.first); });
  }
  return out;
}

std::vector<std::string> js_object_keys(const Json* v) {
  std::vector<std::string> out;
  if (!v) return out;
  if (v->is_object()) {
    for (const auto& [k, value] : js_members(v)) out.emplace_back(k);
  } else if (v->is_array()) {
    for (std::size_t i = 0; i < v->size(); ++i) out.push_back(std::to_string(i));
  } else if (v->is_string()) {
    for (std::size_t i = 0; i < v->string().size(); ++i) out.push_back(std::to_string(i));
  }
  return out;
}

double js_to_number(const Json* v) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!v) return kNaN;
  if (v->is_number()) return v->get<double>();
  if (v->is_null()) return 0;
  if (v->is_boolean()) return v->get<bool>() ? 1 : 0;
  if (v->is_string()) {
    const std::string s(v->string());
    const auto first = s.find_first_not_of(" \t\n\r\f\v");
    if (first == std::string::npos) return 0;
    const auto last = s.find_last_not_of(" \t\n\r\f\v");
    const std::string body = s.substr(first, last - first + 1);
    if (body == "Infinity" || body == "+Infinity") return std::numeric_limits<double>::infinity();
    if (body == "-Infinity") return -std::numeric_limits<double>::infinity();
    for (char c : body) {
      if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return kNaN;
    }
    char* end = nullptr;
    const double d = std::strtod(body.c_str(), &end);
    return end == body.c_str() + body.size() ? d : kNaN;
  }
  if (v->is_array()) {
    if (v->empty()) return 0;
    if (v->size() == 1 && !(*v)[0].is_object() && !(*v)[0].is_array()) return (*v)[0].is_null() ? 0 : js_to_number(&(*v)[0]);
    return kNaN;
  }
  return kNaN;
}

double strict_number(const Json* v) noexcept {
  const auto n = as_number(v);
  return n ? *n : std::numeric_limits<double>::quiet_NaN();
}

std::string js_string(const Json* v) {
  if (!v) return "undefined";
  if (v->is_null()) return "null";
  if (v->is_boolean()) return v->get<bool>() ? "true" : "false";
  if (v->is_number()) return js_number(v->get<double>());
  if (v->is_string()) return std::string(v->string());
  if (v->is_array()) {  // Array.prototype.join(","): null and undefined elements print empty
    std::string out;
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (i) out += ',';
      if (!(*v)[i].is_null()) out += js_string(&(*v)[i]);
    }
    return out;
  }
  return "[object Object]";
}

Failure plain_failure(int rule, std::string field_path, std::string message, std::optional<std::string> parameter_id) {
  Failure f;
  f.rule = rule;
  f.parameter_id = std::move(parameter_id);
  f.field_path = std::move(field_path);
  f.stored = 0;
  f.recomputed = 0;
  f.delta = 0;
  f.tolerance = 0;
  f.message = std::move(message);
  return f;
}

Failure numeric_failure(int rule, std::string field_path, double stored, double recomputed, const ToleranceCheck& check,
                        std::string message, std::optional<std::string> parameter_id) {
  Failure f;
  f.rule = rule;
  f.parameter_id = std::move(parameter_id);
  f.field_path = std::move(field_path);
  f.stored = stored;
  f.recomputed = recomputed;
  f.delta = check.delta;
  f.tolerance = check.finite ? check.applied : 0;
  f.message = std::move(message);
  return f;
}

double js_pow(double x, double y) noexcept { return receipt::engine::fdlibm::pow(x, y); }

}  // namespace reconcile::rules
