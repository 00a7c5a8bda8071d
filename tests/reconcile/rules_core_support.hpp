#pragma once
// A small, exactly-representable receipt (1-1-1 network, SGD, constant bias) that passes every
// core rule, and helpers to find failures in a result.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>

#include "reconcile/reconcile.hpp"

namespace rules_core_test {

using Json = reconcile::Tree;

inline Json tiny_receipt() {
  return Json::parse(R"({
    "schema_version": "0.2.0",
    "fixture_status": {"authoring_state": "engine_generated"},
    "numeric_policy": {"tolerance": {"atol": 1e-12, "rtol": 0}},
    "bias_policy": {"mode": "constant"},
    "topology": {"input_size": 1, "hidden_size": 1, "output_size": 1,
                 "unit_order": {"input": ["i1"], "hidden": ["h1"], "output": ["o1"]},
                 "activation_output": "sigmoid", "loss": "half_squared_error"},
    "inputs": {"i1": 1},
    "targets": {"o1": 0.5},
    "forward": {"h1": {"net": 0.5, "out": 0.25}, "o1": {"net": 0.5, "out": 0.75}},
    "loss": {"per_output": {"o1": 0.03125}, "total": 0.03125},
    "backward": {
      "output_error_signals": {"o1": {
        "factors": [{"name": "target_minus_output", "value": -0.25}, {"name": "activation_derivative", "value": 0.5}],
        "product_order": "left_to_right", "signal_value": -0.125}},
      "hidden_error_signals": {"h1": {
        "downstream_contributions": [{"from": "o1", "downstream_signal": -0.125, "weight_value": 0.5, "value": -0.0625}],
        "summation_order": ["o1"], "backpropagated_sum": -0.0625, "activation_derivative": 0.25,
        "product_order": "left_to_right", "signal_value": -0.015625}}},
    "updates": [{"parameter_id": "w1", "kind": "weight", "gradient": -0.03125,
      "optimizer": {"name": "sgd", "learning_rate": 0.5,
        "factors": [{"name": "output_error_signal", "from": "backward.output_error_signals.o1.signal_value", "value": -0.125},
                    {"name": "upstream_activation", "from": "forward.h1.out", "value": 0.25}],
        "product_order": "left_to_right"},
      "update": -0.015625, "weight_before": 0.5, "weight_after": 0.484375}],
    "parameters_before": {"w1": 0.5, "b1": 0.1},
    "parameters_after": {"w1": 0.484375, "b1": 0.1}
  })");
}

// Softmax + cross-entropy, 2 outputs, with a dual form on o1 (no hidden layer in unit_order).
inline Json softmax_receipt() {
  Json r = tiny_receipt();
  r["topology"]["unit_order"] = Json::parse(R"({"input": ["i1"], "hidden": ["h1"], "output": ["o1", "o2"]})");
  r["topology"]["output_size"] = 2;
  r["topology"]["activation_output"] = "softmax";
  r["topology"]["loss"] = "cross_entropy_softmax";
  r["targets"] = Json::parse(R"({"o1": 1, "o2": 0})");
  r["forward"] = Json::parse(R"({"h1": {"net": 0.5, "out": 0.25}, "o1": {"net": 0.1, "out": 0.75}, "o2": {"net": 0.0, "out": 0.25}})");
  const double ce = -1.0 * std::log(0.75);
  r["loss"] = {{"per_output", {{"o1", ce}, {"o2", 0}}}, {"total", ce}};
  r["backward"]["output_error_signals"]["o1"] = Json::parse(R"({
    "factors": [{"name": "target_minus_probability", "value": 0.25}], "product_order": "left_to_right",
    "signal_value": 0.25,
    "dual_form": {"jacobian_terms": [
        {"target_unit": "o1", "factors": [{"name": "y_j", "value": 1}, {"name": "delta_ju_minus_p_u", "value": 0.25}], "term_value": 0.25},
        {"target_unit": "o2", "factors": [{"name": "y_j", "value": 0}, {"name": "delta_ju_minus_p_u", "value": -0.75}], "term_value": 0}],
      "product_order": "left_to_right", "summation_order": ["o1", "o2"], "summed_value": 0.25}})");
  r["backward"]["output_error_signals"]["o2"] = Json::parse(R"({
    "factors": [{"name": "target_minus_probability", "value": -0.25}], "product_order": "left_to_right",
    "signal_value": -0.25})");
  // Keep Rule 1/8 consistent: w1 reads o1's signal; h1's contribution from o1 only.
  r["backward"]["hidden_error_signals"]["h1"]["downstream_contributions"][0]["downstream_signal"] = 0.25;
  r["backward"]["hidden_error_signals"]["h1"]["downstream_contributions"][0]["value"] = 0.125;
  r["backward"]["hidden_error_signals"]["h1"]["backpropagated_sum"] = 0.125;
  r["backward"]["hidden_error_signals"]["h1"]["signal_value"] = 0.03125;
  auto& u = r["updates"][0];
  u["optimizer"]["factors"][0]["value"] = 0.25;
  u["gradient"] = 0.0625;
  u["update"] = 0.03125;
  u["weight_after"] = 0.53125;
  r["parameters_after"]["w1"] = 0.53125;
  return r;
}

inline const reconcile::Failure* find(const reconcile::Result& r, int rule, const std::string& path) {
  for (const auto& f : r.failures) {
    if (f.rule == rule && f.field_path == path) return &f;
  }
  return nullptr;
}

inline std::string describe(const reconcile::Result& r) {
  std::string out = r.ok ? "ok" : "failed:";
  for (const auto& f : r.failures) {
    out += " [" + std::to_string(f.rule) + " " + f.field_path + (f.parameter_id ? " " + *f.parameter_id : "") +
           (f.cascade_of_rule ? " cascade " + std::to_string(*f.cascade_of_rule) : "") + "]";
  }
  return out;
}

inline std::size_t count_rule(const reconcile::Result& r, int rule) {
  std::size_t n = 0;
  for (const auto& f : r.failures) n += f.rule == rule;
  return n;
}

}  // namespace rules_core_test
