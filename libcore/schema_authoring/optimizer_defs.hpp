#pragma once
// The optimizer settings object and per-parameter optimizer state, and the edits
// that extend them as optimizers were added.
#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

Node optimizer_config();                    // sgd | adam | adamw (receipt v0.5.0, trace v0.4.0)
void add_momentum(Node& optimizer_config);  // sgd_momentum, no Nesterov, no dampening
void allow_nesterov_and_dampening(Node& optimizer_config);
Node adam_state(Style style);
Node momentum_state(Style style);
Node optimizer_state();                 // either state
void add_adam_to_update(Node& update);  // optimizer names adam/adamw, states before/after
void add_momentum_to_update(Node& update);

}  // namespace schema_authoring
