// Rule 6: weight_after == weight_before + update, or for AdamW (decoupled weight decay,
// Loshchilov & Hutter 2017 Alg. 2 line 12) (1 - lr * wd) * weight_before + update, with wd from
// optimizer_config.weight_decay. Failures cascade from Rule 4 or 5 on the same parameter.
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_06_weight_progression(RuleContext& ctx) {
  const Ref wd = opt(lookup(&ctx.receipt, "optimizer_config"), "weight_decay");
  const bool decoupled_wd = is_finite_number(wd) && number(wd) >= 0;
  const Json& updates = *lookup(&ctx.receipt, "updates");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref update = &updates[i];
    const Ref before = get(update, "weight_before");
    const Val step = Val::of(lookup(update, "update"));
    const Ref optimizer = lookup(update, "optimizer");
    Val recomputed;
    if (decoupled_wd && equals(opt(optimizer, "name"), "adamw")) {
      const double lr = to_number(lookup(optimizer, "learning_rate"));
      recomputed = add(Val::of_number((1 - lr * number(wd)) * to_number(before)), step);
    } else {
      recomputed = add(Val::of(before), step);
    }
    const Val stored = Val::of(lookup(update, "weight_after"));
    const auto c = check(recomputed, stored, ctx.tolerance);
    if (c.ok) continue;
    const Ref pid = lookup(update, "parameter_id");
    Failure f = numeric(6, parameter_id(pid), "updates[" + std::to_string(i) + "].weight_after", stored, recomputed, c);
    f.cascade_of_rule = prior(ctx.cascades, pid, {4, 5});
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 6, pid);
  }
}

}  // namespace reconcile::rules
