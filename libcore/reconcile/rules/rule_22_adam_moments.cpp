// Rule 22: Adam moment recurrences (gated on optimizer_config.name adam/adamw), per Adam update:
//   22a m_after == beta1 * m_before + (1 - beta1) * gradient
//   22b v_after == beta2 * v_before + (1 - beta2) * gradient^2
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/optim_updates.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_22_adam_moments(RuleContext& ctx) {
  const auto oc = read_optimizer_config(ctx.receipt);
  if (!oc || !oc->is_adam_family() || !oc->beta1 || !oc->beta2) return;
  const Json* updates = array_member(ctx.receipt, "updates");
  if (!updates) return;
  const double beta1 = *oc->beta1;
  const double beta2 = *oc->beta2;
  for (std::size_t i = 0; i < updates->size(); ++i) {
    const Json& u = (*updates)[i];
    if (!is_adam_name(update_optimizer_name(u))) continue;
    const Json* opt = member(u, "optimizer");
    const Json* before = member(*opt, "state_before");
    const Json* after = member(*opt, "state_after");
    if (!core::truthy(before) || !core::truthy(after)) continue;  // Rule 20's finding
    const double grad = js_to_number(member(u, "gradient"));
    const double m_before = js_to_number(member(*before, "m"));
    const double v_before = js_to_number(member(*before, "v"));
    const double m_after = strict_number(member(*after, "m"));
    const double v_after = strict_number(member(*after, "v"));
    const auto pid = update_parameter_id(u);
    const std::string at = "updates[" + std::to_string(i) + "].optimizer.state_after.";

    const double expected_m = beta1 * m_before + (1 - beta1) * grad;
    const auto cm = check_tolerance(expected_m, m_after, ctx.tolerance);
    if (!cm.ok) {
      ctx.failures.add(numeric_failure(22, at + "m", m_after, expected_m, cm,
                                       "Rule 22a (Adam first-moment recurrence): m_after " + js_number(m_after) +
                                           " does not match beta1 * m_before + (1 - beta1) * gradient = " +
                                           js_number(beta1) + " * " + js_number(m_before) + " + " + js_number(1 - beta1) +
                                           " * " + js_number(grad) + " = " + js_number(expected_m) + ".",
                                       pid));
    }
    const double expected_v = beta2 * v_before + (1 - beta2) * (grad * grad);
    const auto cv = check_tolerance(expected_v, v_after, ctx.tolerance);
    if (!cv.ok) {
      ctx.failures.add(numeric_failure(22, at + "v", v_after, expected_v, cv,
                                       "Rule 22b (Adam second-moment recurrence): v_after " + js_number(v_after) +
                                           " does not match beta2 * v_before + (1 - beta2) * gradient^2 = " +
                                           js_number(beta2) + " * " + js_number(v_before) + " + " + js_number(1 - beta2) +
                                           " * " + js_number(grad * grad) + " = " + js_number(expected_v) + ".",
                                       pid));
    }
  }
}

}  // namespace reconcile::rules
