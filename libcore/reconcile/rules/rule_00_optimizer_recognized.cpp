// Rule 0 (recognized optimizer): the update-equation rules are dispatched by optimizer name (5 for
// sgd, 21 for sgd_momentum, 24 for adam/adamw), so a name outside that set would leave a
// fabricated update unchecked. The first update naming an unknown optimizer, and an unknown
// optimizer_config.name, are structural failures.
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

using namespace core;

constexpr const char* kRecognizedList = "{sgd, sgd_momentum, adam, adamw}";

bool recognized(std::string_view name) {
  return name == "sgd" || name == "sgd_momentum" || name == "adam" || name == "adamw";
}

}  // namespace

void check_rule_00_optimizer_recognized(RuleContext& ctx) {
  const Json& updates = *lookup(&ctx.receipt, "updates");
  KeyHint k_optimizer("optimizer"), k_name("name");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref u = &updates[i];
    if (!truthy(u)) continue;
    const Ref name = k_name.opt(k_optimizer.in(u));
    if (!is_string(name) || recognized(name->string())) continue;
    const Ref pid = lookup(u, "parameter_id");
    const std::string path = "updates[" + std::to_string(i) + "].optimizer.name";
    ctx.failures.add(structural(
        parameter_id(pid), path,
        "Unrecognized optimizer.name='" + std::string(name->string()) + "' at " + path + " (parameter '" +
            to_string(pid) + "'). The reconciler implements update-equation rules only for " + kRecognizedList +
            "; an unrecognized optimizer has NO rule checking update == f(gradient), so a fabricated update would "
            "pass unchecked. Rejecting structurally."));
    break;
  }
  const OptimizerConfig oc = core::read_optimizer_config(ctx.receipt);
  if (oc.present && !recognized(*oc.name)) {
    ctx.failures.add(structural(std::nullopt, "optimizer_config.name",
                                "Unrecognized optimizer_config.name='" + std::string(*oc.name) +
                                    "'. The reconciler implements update-equation rules only for " + kRecognizedList +
                                    ". An unrecognized optimizer has no rule checking the parameter update, so a "
                                    "fabricated update would pass unchecked — rejecting structurally."));
  }
}

}  // namespace reconcile::rules
