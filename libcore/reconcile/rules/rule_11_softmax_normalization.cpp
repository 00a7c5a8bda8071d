// Rule 11 (softmax normalization): under topology.activation_output 'softmax' the forward outputs
// sum, left to right in unit_order.output order, to 1 within tolerance. A missing or non-numeric
// output skips the rule (Rule 0.9 or Rule 14 has already rejected that receipt).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_11_softmax_normalization(RuleContext& ctx) {
  const Ref topo = lookup(&ctx.receipt, "topology");
  if (!equals(opt(topo, "activation_output"), "softmax")) return;
  const Ref order = opt(lookup(topo, "unit_order"), "output");
  if (!is_array(order) || order->empty()) return;
  const Ref forward_map = lookup(&ctx.receipt, "forward");
  if (!truthy(forward_map)) return;
  const Lookup forward(forward_map);
  double sum = 0;
  bool first = true;
  for (const auto& unit : *order) {
    const Ref f = forward.find_value(&unit);
    if (!truthy(f)) return;
    const Ref out = lookup(f, "out");
    if (!is_number(out)) return;
    sum = first ? number(out) : sum + number(out);
    first = false;
  }
  const auto c = check_tolerance(sum, 1.0, ctx.tolerance);
  if (c.ok) return;
  Failure f = numeric(11, std::nullopt, "forward[output_units].out (sum)", Val::of_number(sum), Val::of_number(1.0), c);
  if (c.finite) {
    std::string units;
    for (const auto& unit : *order) {
      if (!units.empty()) units += ", ";
      units += to_string(&unit);
    }
    f.message = "Rule 11 (softmax normalization): sum(forward[output_unit].out) = " + js_number(sum) +
                " disagrees with the required normalization 1.0 (delta=" + js_number(c.delta) +
                ", tolerance=" + js_number(c.applied) +
                "). Sum computed left-to-right in topology.unit_order.output order: [" + units + "].";
  }
  ctx.failures.add(std::move(f));
}

}  // namespace reconcile::rules
