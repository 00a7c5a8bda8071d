// Rule 7 (final state), for every parameter in parameters_after:
//   - updated: parameters_after == parameters_before + update (SGD, SGD coupled L2 whose update
//     already carries the decay, Adam), or (1 - lr * wd) * parameters_before + update for AdamW's
//     decoupled decay (a missing or invalid optimizer_config.weight_decay is itself a Rule 7
//     failure); failures cascade from Rules 4/5/6 on the same parameter;
//   - not updated: under bias_policy.mode 'constant' it must not move at all (exact); under any
//     other mode the combination is underdetermined and refused (Rule 0).
#include <cmath>
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_07_final_state(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  const Ref after_map = lookup(&r, "parameters_after");
  const Ref before_map = lookup(&r, "parameters_before");
  if (!truthy(after_map) || !is_object(after_map)) return;
  if (!truthy(before_map) || !is_object(before_map)) return;

  // The last update per parameter id (Map.set overwrites).
  SameValueMap<Ref> update_by_id;
  update_by_id.reserve(lookup(&r, "updates")->size());
  KeyHint k_pid("parameter_id"), k_optimizer("optimizer"), k_name("name"), k_update("update");
  for (const auto& u : *lookup(&r, "updates")) update_by_id.set(k_pid.get(&u), &u);
  const Ref bias_mode = opt(lookup(&r, "bias_policy"), "mode");
  const Lookup before(before_map);

  const KeyList ids(after_map);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string_view id = ids.key(i);
    const Ref stored_ref = ids.value(i);
    const Ref before_ref = before.find(id);
    if (!is_number(stored_ref)) {
      ctx.failures.add(structural(std::string(id), "parameters_after." + std::string(id),
                                  "parameters_after." + std::string(id) + " is not a number (got " +
                                      js_typeof(stored_ref) + "). Run schema validation before reconciling."));
      continue;
    }
    if (!is_number(before_ref)) {
      ctx.failures.add(structural(std::string(id), "parameters_before." + std::string(id),
                                  "parameters_before." + std::string(id) + " is missing or not a number (got " +
                                      js_typeof(before_ref) + "). Cannot reconcile parameters_after." +
                                      std::string(id) + " without it."));
      continue;
    }
    const double stored_after = number(stored_ref);
    const double before_value = number(before_ref);
    const Ref* found = update_by_id.find_string(id);
    if (found) {
      const Ref u = *found;
      const Ref optimizer = k_optimizer.in(u);
      Val kept, step;  // recomputed = kept + step
      if (equals(k_name.opt(optimizer), "adamw")) {
        const Ref lr = lookup(optimizer, "learning_rate");
        const Ref wd = opt(lookup(&r, "optimizer_config"), "weight_decay");
        if (!is_finite_number(wd) || number(wd) < 0) {
          Failure f;
          f.rule = 7;
          f.parameter_id = std::string(id);
          f.field_path = "optimizer_config.weight_decay";
          f.stored = 0;
          f.recomputed = 0;
          f.delta = 0;
          f.tolerance = 0;
          f.message = "Rule 7 AdamW branch: update.optimizer.name === 'adamw' on " + std::string(id) +
                      " but optimizer_config.weight_decay is missing or invalid (got " + to_string(wd) +
                      "). AdamW requires weight_decay in the top-level optimizer_config to verify the decoupled "
                      "weight-decay term '(1 - lr*wd) * weight_before + update' (Loshchilov & Hutter 2017 "
                      "arXiv:1711.05101 Alg 2 line 12).";
          ctx.failures.add(std::move(f));
          record(ctx.cascades, 7, id);
          continue;
        }
        kept = Val::of_number((1 - to_number(lr) * number(wd)) * before_value);
        step = Val::of(lookup(u, "update"));
      } else {
        kept = Val::of_number(before_value);
        step = Val::of(k_update.in(u));
      }
      const Val recomputed = add(kept, step);
      const auto c = check_sum(recomputed, Val::of_number(stored_after), ctx.tolerance, ctx.term_scaled_sums, terms_of(kept, step));
      if (c.ok) continue;
      Failure f = numeric(7, std::string(id), "parameters_after." + std::string(id), Val::of_number(stored_after),
                          recomputed, c);
      f.cascade_of_rule = prior(ctx.cascades, id, {4, 5, 6});
      ctx.failures.add(std::move(f));
      record(ctx.cascades, 7, id);
      continue;
    }
    if (equals(bias_mode, "constant")) {
      if (stored_after == before_value) continue;
      Failure f;
      f.rule = 7;
      f.parameter_id = std::string(id);
      f.field_path = "parameters_after." + std::string(id);
      f.stored = stored_after;
      f.recomputed = before_value;
      f.delta = std::fabs(stored_after - before_value);
      f.tolerance = 0;
      ctx.failures.add(std::move(f));
      record(ctx.cascades, 7, id);
      continue;
    }
    ctx.failures.add(structural(std::string(id), "parameters_after." + std::string(id),
                                "Underdetermined: parameter not in updates and bias_policy.mode is not 'constant' (got '" +
                                    (bias_mode && !bias_mode->is_null() ? to_string(bias_mode) : std::string("undefined")) +
                                    "'). The reconciler cannot certify this combination."));
  }
}

}  // namespace reconcile::rules
