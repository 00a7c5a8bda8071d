// Rule 21: PyTorch-style SGD momentum (gated on optimizer_config.name "sgd_momentum"), per update:
//   21a buffer_after == momentum * buffer_before + (1 - dampening) * g_eff
//   21b update / lr  == (nesterov ? g_eff + momentum * buffer_after : buffer_after)
//   21c update       == lr * effective
// where g_eff = gradient - weight_decay * weight_before (coupled L2; descent-direction gradient).
// A failing sub-check stops the later ones on that update (they would only cascade).
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/optim_updates.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_21_sgd_momentum(RuleContext& ctx) {
  const auto oc = read_optimizer_config(ctx.receipt);
  if (!oc || oc->name != "sgd_momentum" || !oc->momentum) return;
  const Json* updates = array_member(ctx.receipt, "updates");
  if (!updates) return;
  const double mu = *oc->momentum;
  const double tau = oc->dampening_number().value_or(0);
  const bool nesterov = oc->nesterov_true();
  const double wd = sgd_coupled_weight_decay(oc);
  for (std::size_t i = 0; i < updates->size(); ++i) {
    const Json& u = (*updates)[i];
    const auto name = update_optimizer_name(u);
    if (!name || *name != "sgd_momentum") continue;
    const Json* opt = member(u, "optimizer");
    const Json* before = member(*opt, "state_before");
    const Json* after = member(*opt, "state_after");
    if (!core::truthy(before) || !core::truthy(after)) continue;
    const auto buf_before = number_member(*before, "buffer");
    const auto buf_after = number_member(*after, "buffer");
    if (!buf_before || !buf_after) continue;  // Rule 20's finding
    const double lr = js_to_number(member(*opt, "learning_rate"));
    const double grad = js_to_number(member(u, "gradient"));
    const double g_eff = grad - wd * js_to_number(member(u, "weight_before"));
    const Json* update_value = member(u, "update");
    const double update = js_to_number(update_value);
    const auto pid = update_parameter_id(u);
    const std::string at = "updates[" + std::to_string(i) + "]";

    const double expected_buffer = mu * *buf_before + (1 - tau) * g_eff;
    const auto a = check_tolerance(expected_buffer, *buf_after, ctx.tolerance);
    if (!a.ok) {
      ctx.failures.add(numeric_failure(
          21, at + ".optimizer.state_after.buffer", *buf_after, expected_buffer, a,
          "Rule 21a (PyTorch-style SGD momentum buffer recurrence): buffer_after " + js_number(*buf_after) +
              " does not match momentum * buffer_before + (1 - dampening) * gradient = " + js_number(mu) + " * " +
              js_number(*buf_before) + " + " + js_number(1 - tau) + " * " + js_number(grad) + " = " +
              js_number(expected_buffer) + ".",
          pid));
      continue;
    }
    const double expected_effective = nesterov ? g_eff + mu * *buf_after : *buf_after;
    const double stored_effective = update / lr;
    const auto b = check_tolerance(expected_effective, stored_effective, ctx.tolerance);
    if (!b.ok) {
      ctx.failures.add(numeric_failure(
          21, at + ".update", stored_effective, expected_effective, b,
          "Rule 21b (PyTorch-style SGD momentum effective-gradient direction): update / learning_rate = " +
              js_number(stored_effective) + " does not match the " +
              (nesterov ? "Nesterov form gradient + momentum * buffer_after" : "classical form buffer_after") + " = " +
              js_number(expected_effective) + " required by optimizer_config.nesterov = " + (nesterov ? "true" : "false") +
              ".",
          pid));
      continue;
    }
    const double expected_update = lr * expected_effective;
    const double stored_update = strict_number(update_value);
    const auto c = check_tolerance(expected_update, stored_update, ctx.tolerance);
    if (!c.ok) {
      ctx.failures.add(numeric_failure(21, at + ".update", stored_update, expected_update, c,
                                       "Rule 21c (PyTorch-style SGD momentum parameter update): update " +
                                           js_number(update) + " does not match learning_rate * effective_gradient = " +
                                           js_number(lr) + " * " + js_number(expected_effective) + " = " +
                                           js_number(expected_update) + ".",
                                       pid));
    }
  }
}

}  // namespace reconcile::rules
