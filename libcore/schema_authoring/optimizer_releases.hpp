#pragma once
// The optimizer features both formats gained, one release at a time (receipt
// v0.5.0-v0.8.0, trace v0.4.0-v0.8.0). The two families keep the settings in
// different places, so each release takes the family's OptimizerSite.
#include <cstddef>
#include <string_view>

#include "schema_authoring/schema_document.hpp"
#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

struct OptimizerSite {
  std::string_view member;  // the root field holding the settings
  bool as_definition;       // in $defs/OptimizerConfig (receipts) or inline (traces)
  Style style;
};

// Adam and AdamW: the settings object (after learning_rate), their required
// hyperparameters, and per-parameter moment state in every update.
void release_adam(SchemaDocument& doc, const OptimizerSite& site);
// SGD with momentum, without Nesterov, dampening or weight decay.
void release_momentum(SchemaDocument& doc, const OptimizerSite& site);
// Nesterov momentum and dampening, not both at once.
void release_nesterov(SchemaDocument& doc, const OptimizerSite& site);
// Momentum with weight decay: the rule at allOf[rule_index] is emptied, keeping its place.
void lift_momentum_weight_decay_ban(SchemaDocument& doc, std::size_t rule_index);

}  // namespace schema_authoring
