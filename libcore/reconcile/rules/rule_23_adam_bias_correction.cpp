// Rule 23: Adam timestep and bias correction (gated on optimizer_config.name adam/adamw):
// optimizer_config.t == step_index + 1 when both are numbers (Adam counts t from 1), and the
// bias-correction divisors 1 - beta1^t and 1 - beta2^t are positive and finite.
#include <cmath>

#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_23_adam_bias_correction(RuleContext& ctx) {
  const auto oc = read_optimizer_config(ctx.receipt);
  if (!oc || !oc->is_adam_family() || !oc->t) return;
  const double t = *oc->t;
  if (const auto step_index = number_member(ctx.receipt, "step_index")) {
    const double expected = *step_index + 1;
    if (t != expected) {
      Failure f = plain_failure(23, "optimizer_config.t",
                                "Rule 23 (Adam bias correction t consistency): optimizer_config.t=" + js_number(t) +
                                    " but step_index=" + js_number(*step_index) + " (expected t === step_index + 1 = " +
                                    js_number(expected) + "). Adam counts its timestep from 1; step_index from 0.");
      f.stored = t;
      f.recomputed = expected;
      f.delta = std::fabs(t - expected);
      ctx.failures.add(std::move(f));
      return;
    }
  }
  if (!oc->beta1 || !oc->beta2) return;
  const double denom_m = 1 - js_pow(*oc->beta1, t);
  const double denom_v = 1 - js_pow(*oc->beta2, t);
  if (!(denom_m > 0 && std::isfinite(denom_m))) {
    Failure f = plain_failure(23, "optimizer_config.beta1",
                              "Rule 23: bias-correction divisor (1 - beta1^t) = " + js_number(denom_m) +
                                  " is non-positive or non-finite for beta1=" + js_number(*oc->beta1) +
                                  ", t=" + js_number(t) + ".");
    f.stored = *oc->beta1;
    ctx.failures.add(std::move(f));
  }
  if (!(denom_v > 0 && std::isfinite(denom_v))) {
    Failure f = plain_failure(23, "optimizer_config.beta2",
                              "Rule 23: bias-correction divisor (1 - beta2^t) = " + js_number(denom_v) +
                                  " is non-positive or non-finite for beta2=" + js_number(*oc->beta2) +
                                  ", t=" + js_number(t) + ".");
    f.stored = *oc->beta2;
    ctx.failures.add(std::move(f));
  }
}

}  // namespace reconcile::rules
