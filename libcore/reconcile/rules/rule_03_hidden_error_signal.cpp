// Rule 3: every hidden unit's signal_value equals backpropagated_sum * activation_derivative,
// in that order (product_order left_to_right; any other is Rule 0).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_03_hidden_error_signal(RuleContext& ctx) {
  const Ref signals = opt(lookup(&ctx.receipt, "backward"), "hidden_error_signals");
  if (!truthy(signals) || !is_object(signals)) return;
  const KeyList units(signals);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Ref unit = units.value(i);
    if (!truthy(unit) || !is_object(unit)) continue;
    const std::string_view id = units.key(i);
    const Ref order = lookup(unit, "product_order");
    if (!equals(order, kLeftToRight)) {
      const std::string path = "backward.hidden_error_signals." + std::string(id) + ".product_order";
      ctx.failures.add(structural(std::string(id), path,
                                  "Unsupported product_order " + (order ? js_stringify_value(*order) : "undefined") +
                                      " at " + path + ". The reconciler accepts only 'left_to_right' "
                                      "(docs/computation-order.md)."));
      continue;
    }
    const Ref sum = lookup(unit, "backpropagated_sum");
    const Ref derivative = lookup(unit, "activation_derivative");
    const Val product = Val::of_number(to_number(sum) * to_number(derivative));
    const Val stored = Val::of(lookup(unit, "signal_value"));
    const auto c = check(product, stored, ctx.tolerance);
    if (c.ok) continue;
    Failure f = numeric(3, std::string(id), "backward.hidden_error_signals." + std::string(id) + ".signal_value",
                        stored, product, c);
    f.factors = {Factor{"backpropagated_sum", std::nullopt, Val::of(sum).num},
                 Factor{"activation_derivative", std::nullopt, Val::of(derivative).num}};
    f.product_order = kLeftToRight;
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 3, id);
  }
}

}  // namespace reconcile::rules
