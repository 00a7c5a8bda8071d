// Rule 1: every backward.output_error_signals[u].signal_value equals the product of its factors,
// multiplied strictly left to right (the only product_order accepted; any other is Rule 0).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_01_output_error_signal(RuleContext& ctx) {
  const Ref signals = opt(lookup(&ctx.receipt, "backward"), "output_error_signals");
  if (!truthy(signals) || !is_object(signals)) return;
  const KeyList units(signals);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Ref unit = units.value(i);
    if (!truthy(unit) || !is_object(unit)) continue;
    const std::string_view id = units.key(i);
    const auto base_path = [&] { return "backward.output_error_signals." + std::string(id); };
    const Ref order = lookup(unit, "product_order");
    if (!equals(order, kLeftToRight)) {
      const std::string base = base_path();
      ctx.failures.add(structural(std::string(id), base + ".product_order",
                                  "Unsupported product_order " + (order ? js_stringify_value(*order) : "undefined") +
                                      " at " + base + ".product_order. The reconciler accepts only 'left_to_right' "
                                      "(docs/computation-order.md)."));
      continue;
    }
    const Ref factors = lookup(unit, "factors");
    if (!is_array(factors) || factors->empty()) {
      const std::string base = base_path();
      ctx.failures.add(structural(std::string(id), base + ".factors",
                                  base + ".factors has " +
                                      (is_array(factors) ? std::string("0 entries") : "non-array type " + js_typeof(factors)) +
                                      ". Receipts require >= 1 factor per output error signal (schema minItems: 1)."));
      continue;
    }
    const Val product = multiply_left_to_right(*factors);
    const Val stored = Val::of(lookup(unit, "signal_value"));
    const auto c = check(product, stored, ctx.tolerance);
    if (c.ok) continue;
    Failure f = numeric(1, std::string(id), base_path() + ".signal_value", stored, product, c);
    f.factors = factor_list(factors);
    f.product_order = kLeftToRight;
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 1, id);
  }
}

}  // namespace reconcile::rules
