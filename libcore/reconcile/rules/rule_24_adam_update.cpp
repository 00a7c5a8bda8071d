// Rule 24: the Adam/AdamW parameter update (gated on optimizer_config.name adam/adamw):
//   update == lr * m_hat / (sqrt(v_hat) + epsilon),  m_hat = m_after / (1 - beta1^t),
//   v_hat = v_after / (1 - beta2^t); epsilon outside the square root (PyTorch). AdamW's decoupled
// weight decay acts on the parameter step (Rule 7), not on this value.
#include <cmath>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/optim_updates.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_24_adam_update(RuleContext& ctx) {
  const auto oc = read_optimizer_config(ctx.receipt);
  if (!oc || !oc->is_adam_family() || !oc->beta1 || !oc->beta2 || !oc->epsilon || !oc->t) return;
  const double denom_m = 1 - js_pow(*oc->beta1, *oc->t);
  const double denom_v = 1 - js_pow(*oc->beta2, *oc->t);
  if (!(denom_m > 0) || !(denom_v > 0)) return;  // Rule 23's finding
  const Json* updates = array_member(ctx.receipt, "updates");
  if (!updates) return;
  const double epsilon = *oc->epsilon;
  for (std::size_t i = 0; i < updates->size(); ++i) {
    const Json& u = (*updates)[i];
    if (!is_adam_name(update_optimizer_name(u))) continue;
    const Json* opt = member(u, "optimizer");
    const Json* after = member(*opt, "state_after");
    if (!core::truthy(after)) continue;  // Rule 20's finding
    const double lr = js_to_number(member(*opt, "learning_rate"));
    const double m_hat = js_to_number(member(*after, "m")) / denom_m;
    const double v_hat = js_to_number(member(*after, "v")) / denom_v;
    const double expected = (lr * m_hat) / (std::sqrt(v_hat) + epsilon);
    const double stored = strict_number(member(u, "update"));
    const auto check = check_tolerance(expected, stored, ctx.tolerance);
    if (check.ok) continue;
    ctx.failures.add(numeric_failure(24, "updates[" + std::to_string(i) + "].update", stored, expected, check,
                                     "Rule 24 (Adam/AdamW parameter update): update " + js_number(stored) +
                                         " does not match lr * m_hat / (sqrt(v_hat) + epsilon) = " + js_number(lr) +
                                         " * " + js_number(m_hat) + " / (sqrt(" + js_number(v_hat) + ") + " +
                                         js_number(epsilon) + ") = " + js_number(expected) +
                                         " (epsilon outside the square root, PyTorch convention).",
                                     update_parameter_id(u)));
  }
}

}  // namespace reconcile::rules
