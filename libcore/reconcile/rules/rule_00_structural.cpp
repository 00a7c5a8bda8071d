// Rule 0 (structural cross-consistency), before any numeric rule: bias policy against the bias
// updates and bias final state (0a-0c), bias sharing against applies_to_units (0d/0e), update kind
// against parameter role (0f), Rule 0.8 softmax probability bounds, and declared layer sizes
// against unit_order (0g). Each sub-check no-ops when the fields it compares are absent.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

using namespace core;

bool is_bias_role(Ref role) { return equals(role, "hidden_bias") || equals(role, "output_bias"); }

Failure exact_mismatch(std::optional<std::string> pid, std::string path, double stored, double recomputed,
                       std::string message) {
  Failure f;
  f.rule = 0;
  f.parameter_id = std::move(pid);
  f.field_path = std::move(path);
  f.stored = stored;
  f.recomputed = recomputed;
  f.delta = std::fabs(stored - recomputed);
  f.tolerance = 0;
  f.message = std::move(message);
  return f;
}

// 0a: bias_policy.mode 'constant' but an update has kind 'bias'.
void constant_mode_bias_updates(const Json& updates, FailureSink& out) {
  KeyHint k_kind("kind");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref u = &updates[i];
    if (!truthy(u) || !equals(k_kind.in(u), "bias")) continue;
    const Ref pid = lookup(u, "parameter_id");
    out.add(structural(parameter_id(pid), "updates[" + std::to_string(i) + "].kind",
                       "bias_policy.mode='constant' contradicts updates[" + std::to_string(i) +
                           "].kind='bias' on parameter '" + to_string(pid) +
                           "'. Under mode='constant' the engine emits no bias-update entries (biases stay fixed). "
                           "Either set bias_policy.mode='sgd' or remove the bias updates and restore bias "
                           "parameters_after to equal parameters_before."));
  }
}

// 0b: bias_policy.mode 'constant' but a bias parameter moved.
void constant_mode_bias_drift(Ref parameters, Ref before_map, Ref after_map, FailureSink& out) {
  const Lookup before(before_map), after(after_map);
  for_of(parameters, "topology.parameters", [&](Ref param) {
    if (!is_bias_role(get(param, "role"))) return;
    const Ref id = get(param, "id");
    const Ref b = before.find_value(id);
    const Ref a = after.find_value(id);
    if (!is_number(b) || !is_number(a) || number(b) == number(a)) return;
    const std::string key = key_of(id);
    out.add(exact_mismatch(parameter_id(id), "parameters_after." + key, number(a), number(b),
                           "bias_policy.mode='constant' contradicts parameters_after." + key + " (" +
                               js_number(number(a)) + ") != parameters_before." + key + " (" + js_number(number(b)) +
                               "). Under mode='constant', bias parameters must be exactly equal across the step "
                               "(tolerance=0). Either set bias_policy.mode='sgd' or restore the bias value."));
  });
}

// 0c: bias_policy.mode 'sgd' with declared bias parameters but no bias update for some of them.
void sgd_mode_missing_bias_updates(Ref parameters, const Json& updates, FailureSink& out) {
  if (!is_array(parameters)) throw JsTypeError("topology.parameters.filter is not a function");
  std::vector<Ref> declared;  // unique by SameValueZero, in first-seen order
  SameValueMap<bool> seen;
  for (const auto& p : *parameters) {
    if (!is_bias_role(get(&p, "role"))) continue;
    const Ref id = get(&p, "id");
    if (seen.find(id)) continue;
    seen.set(id, true);
    declared.push_back(id);
  }
  if (declared.empty()) return;
  SameValueMap<bool> updated;
  for (const auto& u : updates) {
    if (equals(opt(&u, "kind"), "bias")) updated.set(get(&u, "parameter_id"), true);
  }
  std::string missing;
  for (const Ref id : declared) {
    if (updated.find(id)) continue;
    if (!missing.empty()) missing += ", ";
    missing += to_string(id);
  }
  if (missing.empty()) return;
  out.add(structural(std::nullopt, "bias_policy.mode",
                     "bias_policy.mode='sgd' declares biases are updated, but updates[] contains zero kind='bias' "
                     "entries for declared bias parameter(s): " +
                         missing + ". Either emit bias update entries or set bias_policy.mode='constant'."));
}

// 0d/0e: bias_sharing against each bias parameter's applies_to_units length.
void bias_sharing_coverage(Ref topo, Ref parameters, Ref unit_order, FailureSink& out) {
  const Ref sharing = get(topo, "bias_sharing");
  const bool per_layer = equals(sharing, "per_layer");
  for_of(parameters, "topology.parameters", [&](Ref param) {
    const Ref role = get(param, "role");
    if (!is_bias_role(role)) return;
    const Ref layer = get(unit_order, equals(role, "hidden_bias") ? "hidden" : "output");
    const Ref applies = get(param, "applies_to_units");
    if (!is_array(layer) || !is_array(applies)) return;
    const double actual = static_cast<double>(applies->size());
    const double expected = per_layer ? static_cast<double>(layer->size()) : 1.0;
    if (actual == expected) return;
    const Ref id = get(param, "id");
    const std::string mode = to_string(sharing);
    out.add(exact_mismatch(parameter_id(id), "topology.parameters[id=" + to_string(id) + "].applies_to_units", actual,
                           expected,
                           "topology.bias_sharing='" + mode + "' implies bias parameter '" + to_string(id) +
                               "' should have applies_to_units.length === " + js_number(expected) + " (" +
                               (per_layer ? "the entire layer" : "exactly one unit") + "), got " + js_number(actual) +
                               ". Either set bias_sharing='" + (per_layer ? "per_neuron" : "per_layer") +
                               "' or restructure applies_to_units to match the declared mode."));
  });
}

// 0f: an update's kind against its parameter's declared role.
void kind_against_role(Ref parameters, const Json& updates, FailureSink& out) {
  SameValueMap<Ref> role_by_id;
  if (is_array(parameters)) role_by_id.reserve(parameters->size());
  KeyHint k_id("id"), k_role("role"), k_pid("parameter_id"), k_kind("kind");
  for_of(parameters, "topology.parameters", [&](Ref p) {
    const Ref id = k_id.get(p);
    role_by_id.set(id, k_role.get(p));
  });
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref u = &updates[i];
    if (!truthy(u)) continue;
    const Ref pid = k_pid.in(u);
    const Ref* role = role_by_id.find(pid);
    if (!role || !*role) continue;  // Map.get gave undefined
    const bool bias_role = is_bias_role(*role);
    const Ref kind = k_kind.in(u);
    if (!kind || bias_role == equals(kind, "bias")) continue;
    out.add(structural(parameter_id(pid), "updates[" + std::to_string(i) + "].kind",
                       "updates[" + std::to_string(i) + "].kind='" + to_string(kind) +
                           "' contradicts topology.parameters[id=" + to_string(pid) + "].role='" + to_string(*role) +
                           "'. " +
                           (bias_role ? "Bias-role parameters require kind='bias'"
                                      : "Weight-role parameters require kind='weight'") +
                           ". Either correct the update's kind or fix the parameter's role declaration."));
  }
}

// Rule 0.8: under a softmax output every forward[output].out lies in [0, 1], with the receipt's
// atol (clamped to the engine ceiling) as slack.
void probability_bounds(const RuleContext& ctx, Ref outputs, Ref forward_map) {
  const double atol = std::min(ctx.tolerance.atol, kNumericCeiling.atol);
  const Lookup forward(forward_map);
  for (const auto& unit : *outputs) {
    const Ref f = forward.find_value(&unit);
    if (!truthy(f)) continue;
    const Ref out_ref = lookup(f, "out");
    if (!is_number(out_ref)) continue;
    const double out = number(out_ref);
    const std::string key = key_of(&unit);
    if (!std::isfinite(out)) {
      Failure fail;
      fail.rule = 0;
      fail.parameter_id = parameter_id(&unit);
      fail.field_path = "forward." + key + ".out";
      fail.stored = out;
      fail.recomputed = 0;
      fail.delta = std::numeric_limits<double>::quiet_NaN();
      fail.tolerance = 0;
      fail.message = "Rule 0.8 (probability bounds): forward." + key + ".out is non-finite (" + js_number(out) +
                     "). Under topology.activation_output='softmax' every output's .out must be a finite number in "
                     "the closed range [0, 1].";
      ctx.failures.add(std::move(fail));
      continue;
    }
    if (out >= -atol && out <= 1 + atol) continue;
    Failure fail;
    fail.rule = 0;
    fail.parameter_id = parameter_id(&unit);
    fail.field_path = "forward." + key + ".out";
    fail.stored = out;
    fail.recomputed = 0;
    fail.delta = out < 0 ? -out : out - 1;
    fail.tolerance = atol;
    fail.message = "Rule 0.8 (probability bounds): forward." + key + ".out=" + js_number(out) +
                   " is outside [0, 1] (atol=" + js_number(atol) +
                   "). Softmax outputs are probabilities by construction; a value outside [0, 1] is either a "
                   "corrupted forward.out or a topology mislabeled as softmax.";
    ctx.failures.add(std::move(fail));
  }
}

// .length of an array or a string (UTF-16 code units), as `x?.length` reads it.
std::optional<double> js_length(Ref v) {
  if (is_array(v)) return static_cast<double>(v->size());
  if (is_string(v)) {
    double n = 0;
    for (unsigned char c : v->string()) {
      if ((c & 0xc0) != 0x80) ++n;
      if (c >= 0xf0) ++n;
    }
    return n;
  }
  if (v && v->is_object()) {
    const Ref length = lookup(v, "length");
    if (is_number(length)) return number(length);
  }
  return std::nullopt;
}

// 0g: topology.{input,hidden,output}_size against unit_order lengths.
void sizes_against_unit_order(Ref topo, Ref unit_order, FailureSink& out) {
  static constexpr const char* kSides[][2] = {{"input", "input_size"}, {"hidden", "hidden_size"}, {"output", "output_size"}};
  for (const auto& [side, size_key] : kSides) {
    const Ref declared = get(topo, size_key);
    const auto actual = js_length(lookup(unit_order, side));
    if (!is_number(declared) || !actual || number(declared) == *actual) continue;
    const double d = number(declared);
    out.add(exact_mismatch(std::nullopt, std::string("topology.") + side + "_size", d, *actual,
                           std::string("topology.") + side + "_size=" + js_number(d) + " contradicts topology.unit_order." +
                               side + ".length=" + js_number(*actual) +
                               ". These must match: the declared size is the count of unit ids in the layer."));
  }
}

}  // namespace

void check_rule_00_structural(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  const Ref updates = lookup(&r, "updates");  // an array: reconcile_receipt checked it
  const Ref mode = opt(lookup(&r, "bias_policy"), "mode");
  const Ref topo = lookup(&r, "topology");
  const Ref parameters = opt(topo, "parameters");
  const Ref unit_order = opt(topo, "unit_order");

  if (equals(mode, "constant")) constant_mode_bias_updates(*updates, ctx.failures);
  if (equals(mode, "constant") && truthy(parameters)) {
    const Ref before = lookup(&r, "parameters_before");
    const Ref after = lookup(&r, "parameters_after");
    if (truthy(before) && truthy(after)) constant_mode_bias_drift(parameters, before, after, ctx.failures);
  }
  if (equals(mode, "sgd") && truthy(parameters)) sgd_mode_missing_bias_updates(parameters, *updates, ctx.failures);
  if (truthy(opt(topo, "bias_sharing")) && truthy(parameters) && truthy(unit_order)) {
    bias_sharing_coverage(topo, parameters, unit_order, ctx.failures);
  }
  if (truthy(parameters)) kind_against_role(parameters, *updates, ctx.failures);
  if (equals(opt(topo, "activation_output"), "softmax") && truthy(unit_order)) {
    const Ref outputs = lookup(unit_order, "output");
    const Ref forward = lookup(&r, "forward");
    if (is_array(outputs) && truthy(forward)) probability_bounds(ctx, outputs, forward);
  }
  if (truthy(unit_order)) sizes_against_unit_order(topo, unit_order, ctx.failures);
}

}  // namespace reconcile::rules
