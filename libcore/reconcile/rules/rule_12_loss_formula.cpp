// Rule 12 (loss formula), for unbatched receipts (Rule 18 owns batched ones):
//   - loss-component coherence: when unit_order.output is declared, loss.per_output has exactly
//     those keys (a missing or an extra component fails);
//   - per output: half_squared_error 0.5 * (y - p)^2, or cross_entropy_softmax -y * log(p) with
//     y == 0 giving exactly 0;
//   - loss.total equals the recomputed per-output values summed in per_output order (when every
//     component could be recomputed).
#include <cmath>
#include <deque>
#include <string>

#include "receipt/engine/fdlibm.hpp"
#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

using namespace core;

Failure rule12_structural(std::optional<std::string> pid, std::string path, std::string message) {
  Failure f = structural(std::move(pid), std::move(path), std::move(message));
  f.rule = 12;
  return f;
}

void component_coherence(RuleContext& ctx) {
  const Ref declared = opt(opt(lookup(&ctx.receipt, "topology"), "unit_order"), "output");
  if (!is_array(declared) || declared->empty()) return;
  const Ref loss = lookup(&ctx.receipt, "loss");
  if (!truthy(loss)) return;
  const Ref per_output = lookup(loss, "per_output");
  if (!truthy(per_output) || !is_object(per_output)) return;
  const KeyList observed(per_output);
  std::deque<std::string> index_keys;  // an array's keys are index texts that must outlive KeyList's buffer
  FlatStringMap<bool> observed_keys(observed.size());
  for (std::size_t i = 0; i < observed.size(); ++i) {
    if (per_output->is_object()) {
      observed_keys.set(observed.key(i), true);
    } else {
      observed_keys.set(index_keys.emplace_back(observed.key(i)), true);
    }
  }
  FlatStringMap<bool> declared_strings(declared->size());
  for (const auto& unit : *declared) {
    if (unit.is_string()) declared_strings.set(unit.string(), true);
  }
  for (const auto& unit : *declared) {
    if (unit.is_string() && observed_keys.contains(unit.string())) continue;
    const std::string key = key_of(&unit);
    ctx.failures.add(rule12_structural(
        parameter_id(&unit), "loss.per_output." + key,
        "Rule 12 (loss-component coherence): loss.per_output is missing output unit \"" + key +
            "\" declared in topology.unit_order.output. A dropped loss component must not go unverified: "
            "loss.per_output's key set must EQUAL the output-unit set."));
  }
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const std::string key(observed.key(i));
    if (declared_strings.contains(key)) continue;
    ctx.failures.add(rule12_structural(
        key, "loss.per_output." + key,
        "Rule 12 (loss-component coherence): loss.per_output contains output unit \"" + key +
            "\" not declared in topology.unit_order.output (no extra components)."));
  }
}

}  // namespace

void check_rule_12_loss_formula(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  if (lookup(&r, "batch")) return;
  component_coherence(ctx);

  const Ref declared = opt(lookup(&r, "topology"), "loss");
  const bool cross_entropy = equals(declared, "cross_entropy_softmax");
  const char* formula = cross_entropy ? "cross_entropy_softmax" : "half_squared_error";
  const Ref loss = lookup(&r, "loss");
  const Ref targets_map = lookup(&r, "targets");
  const Ref forward_map = lookup(&r, "forward");
  if (!truthy(loss) || !truthy(targets_map) || !truthy(forward_map)) return;
  const Ref per_output = lookup(loss, "per_output");
  if (!truthy(per_output) || !is_object(per_output)) {
    ctx.failures.add(rule12_structural(std::nullopt, "loss.per_output",
                                       std::string("Rule 12 (") + formula +
                                           "): loss.per_output is missing or not an object. Receipt cannot be "
                                           "reconciled against the loss formula without per-output entries."));
    return;
  }
  const Lookup targets(targets_map), forward(forward_map);
  double expected_total = 0;
  bool reconstructable = true;
  const KeyList units(per_output);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Ref stored = units.value(i);
    if (!is_number(stored)) continue;
    const std::string_view id = units.key(i);
    const Ref target_ref = targets.find(id);
    const Ref f = forward.find(id);
    const Ref out_ref = f && !f->is_null() ? lookup(f, "out") : nullptr;
    if (!is_number(target_ref) || !is_number(out_ref)) {
      reconstructable = false;
      continue;
    }
    const double y = number(target_ref);
    const double p = number(out_ref);
    double recomputed;
    if (cross_entropy) {
      recomputed = y == 0 ? 0.0 : -y * receipt::engine::fdlibm::log(p);  // Math.log, bit for bit
    } else {
      const double diff = y - p;
      recomputed = 0.5 * diff * diff;
    }
    expected_total = expected_total + recomputed;
    const auto c = check_tolerance(number(stored), recomputed, ctx.tolerance);
    if (c.ok) continue;
    ctx.failures.add(numeric(12, std::string(id), "loss.per_output." + std::string(id), Val::of_number(number(stored)),
                             Val::of_number(recomputed), c));
  }
  const Ref total = lookup(loss, "total");
  if (is_number(total) && reconstructable) {
    const auto c = check_tolerance(number(total), expected_total, ctx.tolerance);
    if (!c.ok) {
      ctx.failures.add(
          numeric(12, std::nullopt, "loss.total", Val::of_number(number(total)), Val::of_number(expected_total), c));
    }
  } else if (total && !is_number(total)) {
    ctx.failures.add(rule12_structural(std::nullopt, "loss.total",
                                       std::string("Rule 12 (") + formula +
                                           "): loss.total is present but not a number. Expected " +
                                           (cross_entropy ? "the sum of -y_u * log(p_u) over output units."
                                                          : "the sum of loss.per_output[*] under the "
                                                            "half_squared_error formula.")));
  }
}

}  // namespace reconcile::rules
