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
  KeyHint k_before("weight_before"), k_update("update"), k_optimizer("optimizer"), k_name("name"),
      k_after("weight_after"), k_pid("parameter_id");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref update = &updates[i];
    const Ref before = k_before.get(update);
    const Val step = Val::of(k_update.in(update));
    const Ref optimizer = k_optimizer.in(update);
    const Val kept = decoupled_wd && equals(k_name.opt(optimizer), "adamw")
                         ? Val::of_number((1 - to_number(lookup(optimizer, "learning_rate")) * number(wd)) * to_number(before))
                         : Val::of(before);
    const Val recomputed = add(kept, step);
    const Val stored = Val::of(k_after.in(update));
    const auto c = check_sum(recomputed, stored, ctx.tolerance, ctx.term_scaled_sums, terms_of(kept, step));
    if (c.ok) continue;
    const Ref pid = k_pid.in(update);
    Failure f = numeric(6, parameter_id(pid), "updates[" + std::to_string(i) + "].weight_after", stored, recomputed, c);
    f.cascade_of_rule = prior(ctx.cascades, pid, {4, 5});
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 6, pid);
  }
}

}  // namespace reconcile::rules
