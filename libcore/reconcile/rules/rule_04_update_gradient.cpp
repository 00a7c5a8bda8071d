// Rule 4: every update's gradient equals the product of its optimizer.factors, left to right
// (the anti-circularity rule of fixtures/bad/mazur.bad-gradient).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_04_update_gradient(RuleContext& ctx) {
  const Json& updates = *lookup(&ctx.receipt, "updates");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref update = &updates[i];
    const Ref optimizer = get(update, "optimizer");
    const Ref order = get(optimizer, "product_order");
    const Ref pid = lookup(update, "parameter_id");
    auto base = [&] { return "updates[" + std::to_string(i) + "]"; };
    if (!equals(order, kLeftToRight)) {
      const std::string path = base() + ".optimizer.product_order";
      ctx.failures.add(structural(parameter_id(pid), path,
                                  "Unsupported product_order " + (order ? js_stringify_value(*order) : "undefined") +
                                      " at " + path + ". The reconciler accepts only 'left_to_right' "
                                      "(docs/computation-order.md)."));
      continue;
    }
    const Ref factors = lookup(optimizer, "factors");
    if (!is_array(factors) || factors->empty()) {
      ctx.failures.add(structural(parameter_id(pid), base() + ".optimizer.factors",
                                  base() + ".optimizer.factors has " +
                                      (is_array(factors) ? std::string("0 entries") : "non-array type " + js_typeof(factors)) +
                                      ". Receipts require >= 1 factor per optimizer (schema minItems: 1)."));
      continue;
    }
    const Val product = multiply_left_to_right(*factors);
    const Val stored = Val::of(lookup(update, "gradient"));
    const auto c = check(product, stored, ctx.tolerance);
    if (c.ok) continue;
    Failure f = numeric(4, parameter_id(pid), base() + ".gradient", stored, product, c);
    f.factors = factor_list(factors);
    f.product_order = kLeftToRight;
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 4, pid);
  }
}

}  // namespace reconcile::rules
