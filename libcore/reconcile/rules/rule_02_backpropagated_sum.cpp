// Rule 2: for every hidden unit, (2a) each downstream contribution's value equals
// downstream_signal * weight_value, and (2b) backpropagated_sum equals the contributions' values
// summed in the declared summation_order (each order key picks the first contribution whose
// `from` is that key).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_02_backpropagated_sum(RuleContext& ctx) {
  const Ref signals = opt(lookup(&ctx.receipt, "backward"), "hidden_error_signals");
  if (!truthy(signals) || !is_object(signals)) return;
  const KeyList units(signals);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Ref unit = units.value(i);
    if (!truthy(unit) || !is_object(unit)) continue;
    const std::string_view id = units.key(i);
    auto base = [&] { return "backward.hidden_error_signals." + std::string(id); };
    const Ref contributions = lookup(unit, "downstream_contributions");
    if (!is_array(contributions)) {
      ctx.failures.add(structural(std::string(id), base() + ".downstream_contributions",
                                  base() + ".downstream_contributions is not an array (got " + js_typeof(contributions) +
                                      "). Receipts require an array of contribution records."));
      continue;
    }
    for (std::size_t j = 0; j < contributions->size(); ++j) {
      const Ref c = &(*contributions)[j];
      const double product = to_number(get(c, "downstream_signal")) * to_number(get(c, "weight_value"));
      const Val stored = Val::of(get(c, "value"));
      const auto result = check(Val::of_number(product), stored, ctx.tolerance);
      if (result.ok) continue;
      ctx.failures.add(numeric(2, std::string(id),
                               base() + ".downstream_contributions[" + std::to_string(j) + "].value", stored,
                               Val::of_number(product), result));
      record(ctx.cascades, 2, id);
    }
    const Ref order = lookup(unit, "summation_order");
    if (!is_array(order)) {
      ctx.failures.add(structural(std::string(id), base() + ".summation_order",
                                  base() + ".summation_order is not an array (got " + js_typeof(order) +
                                      "). Receipts require a declared summation_order."));
      continue;
    }
    double terms = 0;
    const Val sum = sum_in_order(*contributions, *order, "from", "value", &terms);
    const Val stored = Val::of(lookup(unit, "backpropagated_sum"));
    const auto result = check_sum(sum, stored, ctx.tolerance, ctx.term_scaled_sums, terms);
    if (result.ok) continue;
    ctx.failures.add(numeric(2, std::string(id), base() + ".backpropagated_sum", stored, sum, result));
    record(ctx.cascades, 2, id);
  }
}

}  // namespace reconcile::rules
