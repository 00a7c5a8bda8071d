// Rule 20: optimizer-state shape. Whenever an update names a stateful optimizer (adam, adamw,
// sgd_momentum): optimizer_config exists and names one of them, every update agrees with it
// (plain "sgd" updates excepted), the hyperparameters are present and in range, and every
// stateful update carries state_before and state_after of its optimizer's shape ({m, v} with
// v >= 0, or {buffer}), finite.
#include <cmath>
#include <stdexcept>

#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/optim_updates.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

std::string got(const std::optional<double>& v) { return v ? js_number(*v) : "undefined"; }

void hyper(FailureSink& out, const char* key, const std::optional<double>& v, bool bad, const std::string& what) {
  if (!bad) return;
  Failure f = plain_failure(20, std::string("optimizer_config.") + key,
                            std::string("Rule 20: optimizer_config.") + key + " must be " + what + " (got " + got(v) + ").");
  f.stored = v.value_or(0);
  out.add(std::move(f));
}

void check_state(FailureSink& out, const Json& update, std::size_t i, const std::string& name, const char* which) {
  const Json* optimizer = member(update, "optimizer");
  const Json* st = optimizer ? member(*optimizer, which) : nullptr;
  const std::string base = "updates[" + std::to_string(i) + "].optimizer." + which;
  const auto pid = update_parameter_id(update);
  if (!st || !(st->is_object() || st->is_array())) {
    out.add(plain_failure(20, base,
                          "Rule 20: " + base + " is REQUIRED when optimizer.name is adam, adamw or sgd_momentum (got " +
                              js_string(st) + " on optimizer.name='" + name + "').",
                          pid));
    return;
  }
  auto finite_field = [&](const char* key, bool non_negative) {
    const Json* v = member(*st, key);
    const auto n = as_number(v);
    if (n && std::isfinite(*n) && (!non_negative || *n >= 0)) return;
    Failure f = plain_failure(20, base + "." + key,
                              "Rule 20: " + base + "." + key + " must be a " + (non_negative ? "non-negative " : "") +
                                  "finite number (got " + js_string(v) + ").",
                              pid);
    f.stored = n.value_or(0);
    out.add(std::move(f));
  };
  if (name == "sgd_momentum") {
    finite_field("buffer", false);
    if (member(*st, "m") || member(*st, "v")) {
      out.add(plain_failure(20, base,
                            "Rule 20: " + base + " on sgd_momentum carries Adam-shape fields ({m, v}) but should be "
                                                 "MomentumState ({buffer}).",
                            pid));
    }
  } else {
    finite_field("m", false);
    finite_field("v", true);
    if (member(*st, "buffer")) {
      out.add(plain_failure(20, base,
                            "Rule 20: " + base + " on " + name + " carries the Momentum-shape field ({buffer}) but should "
                                                               "be AdamState ({m, v}).",
                            pid));
    }
  }
}

}  // namespace

void check_rule_20_optimizer_state_shape(RuleContext& ctx) {
  const Json* updates = array_member(ctx.receipt, "updates");
  if (!updates) return;
  std::optional<std::string_view> first_adam;
  std::optional<std::string_view> first_momentum;
  for (const auto& u : *updates) {
    const auto name = update_optimizer_name(u);
    if (is_adam_name(name) && !first_adam) first_adam = name;
    if (name && *name == "sgd_momentum" && !first_momentum) first_momentum = name;
  }
  if (!first_adam && !first_momentum) return;  // gated: no stateful optimizer
  const std::string declared(first_adam ? *first_adam : *first_momentum);
  const auto oc = read_optimizer_config(ctx.receipt);
  if (!oc) {
    ctx.failures.add(plain_failure(20, "optimizer_config",
                                   "Rule 20 (optimizer-state shape consistency): updates declare " + declared +
                                       " but the top-level optimizer_config block is missing. Adam/AdamW/sgd_momentum "
                                       "receipts MUST carry optimizer_config with name, learning_rate and the "
                                       "optimizer's hyperparameters."));
    return;
  }
  if (oc->name != "adam" && oc->name != "adamw" && oc->name != "sgd_momentum") {
    ctx.failures.add(plain_failure(20, "optimizer_config.name",
                                   "Rule 20 (optimizer-state shape consistency): updates declare a stateful optimizer "
                                   "but optimizer_config.name='" +
                                       oc->name + "' (expected 'adam', 'adamw', or 'sgd_momentum')."));
    return;
  }
  for (std::size_t i = 0; i < updates->size(); ++i) {
    const Json& u = (*updates)[i];
    const Json* optimizer = member(u, "optimizer");
    if (!optimizer || optimizer->is_null()) throw std::runtime_error("Cannot read properties of undefined (reading 'name')");
    const Json* name_value = member(*optimizer, "name");
    const auto name = as_string(name_value);
    if (!(name && (*name == "sgd" || *name == oc->name))) {
      ctx.failures.add(plain_failure(20, "updates[" + std::to_string(i) + "].optimizer.name",
                                     "Rule 20: updates[" + std::to_string(i) + "].optimizer.name='" +
                                         js_string(name_value) + "' but optimizer_config.name='" + oc->name +
                                         "'. Per-update and top-level optimizer name MUST agree.",
                                     update_parameter_id(u)));
    }
  }
  FailureSink& out = ctx.failures;
  if (oc->is_adam_family()) {
    hyper(out, "beta1", oc->beta1, !oc->beta1 || *oc->beta1 <= 0 || *oc->beta1 >= 1, "a number in (0, 1)");
    hyper(out, "beta2", oc->beta2, !oc->beta2 || *oc->beta2 <= 0 || *oc->beta2 >= 1, "a number in (0, 1)");
    hyper(out, "epsilon", oc->epsilon, !oc->epsilon || *oc->epsilon <= 0, "a positive number");
    hyper(out, "t", oc->t, !oc->t || !std::isfinite(*oc->t) || std::trunc(*oc->t) != *oc->t || *oc->t < 1,
          "a positive integer");
    if (oc->name == "adamw") {
      hyper(out, "weight_decay", oc->weight_decay,
            !oc->weight_decay || !std::isfinite(*oc->weight_decay) || *oc->weight_decay < 0,
            "a non-negative finite number (REQUIRED for AdamW's decoupled weight decay)");
    }
  } else {
    hyper(out, "momentum", oc->momentum, !oc->momentum || *oc->momentum <= 0 || *oc->momentum >= 1, "a number in (0, 1)");
    if (oc->nesterov && !oc->nesterov->is_boolean()) {
      out.add(plain_failure(20, "optimizer_config.nesterov",
                            "Rule 20: optimizer_config.nesterov must be a boolean when present (got " +
                                js_string(oc->nesterov) + ")."));
    }
    if (oc->dampening) {
      const auto d = oc->dampening_number();
      if (!d || !std::isfinite(*d) || *d < 0 || *d >= 1) {
        Failure f = plain_failure(20, "optimizer_config.dampening",
                                  "Rule 20: optimizer_config.dampening must be a finite number in [0, 1) when present (got " +
                                      js_string(oc->dampening) + ").");
        f.stored = d.value_or(0);
        out.add(std::move(f));
      }
    }
    if (oc->nesterov_true() && oc->dampening_number() && *oc->dampening_number() != 0) {
      Failure f = plain_failure(20, "optimizer_config.dampening",
                                "Rule 20: optimizer_config.nesterov === true requires dampening absent or 0 (got dampening=" +
                                    js_number(*oc->dampening_number()) +
                                    "); PyTorch rejects Nesterov momentum with dampening.");
      f.stored = *oc->dampening_number();
      out.add(std::move(f));
    }
    if (oc->weight_decay && (!std::isfinite(*oc->weight_decay) || *oc->weight_decay < 0)) {
      hyper(out, "weight_decay", oc->weight_decay, true, "a non-negative finite number for name === 'sgd_momentum'");
    }
  }
  for (std::size_t i = 0; i < updates->size(); ++i) {
    const Json& u = (*updates)[i];
    const auto name = update_optimizer_name(u);
    if (!is_stateful_name(name)) continue;
    check_state(out, u, i, std::string(*name), "state_before");
    check_state(out, u, i, std::string(*name), "state_after");
  }
}

}  // namespace reconcile::rules
