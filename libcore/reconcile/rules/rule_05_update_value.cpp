// Rule 5 (plain SGD only): update == learning_rate * (gradient - wd * weight_before), where wd is
// optimizer_config.weight_decay for SGD-family coupled L2 (0 otherwise). The stored gradient and
// learning rate are used, so each rule attributes independently; a failure on a parameter whose
// Rule 4 already failed is labelled cascade_of_rule 4. Gated off for any other named optimizer
// (sgd_momentum is Rule 21's, adam/adamw Rule 24's).
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

namespace {

// sgdFamilyCoupledL2WeightDecay: optimizer_config.weight_decay for sgd/sgd_momentum when it is a
// finite non-negative number, else 0.
double coupled_l2_weight_decay(const Json& receipt) {
  const OptimizerConfig oc = read_optimizer_config(receipt);
  if (!oc.present || (*oc.name != "sgd" && *oc.name != "sgd_momentum")) return 0;
  if (!is_finite_number(oc.weight_decay) || number(oc.weight_decay) < 0) return 0;
  return number(oc.weight_decay);
}

}  // namespace

void check_rule_05_update_value(RuleContext& ctx) {
  const double wd = coupled_l2_weight_decay(ctx.receipt);
  const Json& updates = *lookup(&ctx.receipt, "updates");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref update = &updates[i];
    const Ref optimizer = get(update, "optimizer");
    const Ref name = opt(optimizer, "name");
    if (name && !equals(name, "sgd")) continue;
    const Ref lr = get(optimizer, "learning_rate");
    const double gradient_eff = to_number(lookup(update, "gradient")) - wd * to_number(lookup(update, "weight_before"));
    const Val recomputed = Val::of_number(to_number(lr) * gradient_eff);
    const Val stored = Val::of(lookup(update, "update"));
    const auto c = check(recomputed, stored, ctx.tolerance);
    if (c.ok) continue;
    const Ref pid = lookup(update, "parameter_id");
    Failure f = numeric(5, parameter_id(pid), "updates[" + std::to_string(i) + "].update", stored, recomputed, c);
    f.cascade_of_rule = prior(ctx.cascades, pid, {4});
    ctx.failures.add(std::move(f));
    record(ctx.cascades, 5, pid);
  }
}

}  // namespace reconcile::rules
