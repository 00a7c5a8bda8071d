#include "reconcile/result_json.hpp"

namespace reconcile {

nlohmann::ordered_json to_json(const Failure& f) {
  nlohmann::ordered_json j;
  j["rule"] = f.rule;
  if (f.parameter_id) j["parameter_id"] = *f.parameter_id;
  j["field_path"] = f.field_path;
  if (f.stored) j["stored"] = *f.stored;
  if (f.recomputed) j["recomputed"] = *f.recomputed;
  if (f.delta) j["delta"] = *f.delta;
  if (f.tolerance) j["tolerance"] = *f.tolerance;
  if (!f.factors.empty()) {
    auto& factors = j["factors"] = nlohmann::ordered_json::array();
    for (const auto& factor : f.factors) {
      nlohmann::ordered_json one;
      one["name"] = factor.name;
      if (factor.from) one["from"] = *factor.from;
      one["value"] = factor.value;
      factors.push_back(std::move(one));
    }
  }
  if (f.product_order) j["product_order"] = *f.product_order;
  if (f.cascade_of_rule) j["cascade_of_rule"] = *f.cascade_of_rule;
  if (f.message) j["message"] = *f.message;
  return j;
}

nlohmann::ordered_json to_json(const std::vector<Failure>& failures) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& f : failures) out.push_back(to_json(f));
  return out;
}

nlohmann::ordered_json to_json(const Result& r) {
  nlohmann::ordered_json j;
  j["ok"] = r.ok;
  if (!r.ok) {
    j["failures"] = to_json(r.failures);
    if (r.failures_dropped > 0) j["failures_dropped"] = r.failures_dropped;
  }
  if (r.math_gate_skipped) {
    j["math_gate_skipped"] = true;
    j["skipped_rules"] = r.skipped_rules;
    if (!r.math_gate_skipped_records.empty()) j["math_gate_skipped_records"] = r.math_gate_skipped_records;
  }
  if (!r.rules_evaluated.empty() || !r.gated_off.empty()) {
    j["rules_evaluated"] = r.rules_evaluated;
    j["gated_off"] = r.gated_off;
  }
  return j;
}

}  // namespace reconcile
