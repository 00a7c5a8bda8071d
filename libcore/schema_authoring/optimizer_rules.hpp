#pragma once
// Conditional rules ("if ... then ...") tying an optimizer's name to the settings and
// state it needs. `member` is where the optimizer object sits: "optimizer_config"
// on a receipt, "optimizer" on a trace and inside each update.
#include <initializer_list>
#include <string_view>
#include <vector>

#include "schema_authoring/node.hpp"

namespace schema_authoring {

// {"type":"object","if":{<member> present and matching `condition`},"then":{<member> matches `consequence`}}
Node when_member(std::string_view member, Node condition, Node consequence);

// A condition on an optimizer object: its "name" is one of `names` (a const when only one).
Node named(std::initializer_list<std::string_view> names);

// Rules on the optimizer settings object.
Node adam_needs_hyperparameters(std::string_view member);  // adam / adamw: betas, epsilon, t
Node adamw_needs_weight_decay(std::string_view member);
Node momentum_needs_momentum(std::string_view member);
Node momentum_forbids_weight_decay(std::string_view member);
// Retired in receipt v0.8.0 / trace v0.8.0; its place in allOf is kept, empty.
Node momentum_weight_decay_allowed_note();
Node nesterov_forbids_dampening(std::string_view member);

// Rules on an update's "optimizer": stateful optimizers record state before and after.
Node stateful_update_needs_state(std::initializer_list<std::string_view> names);

// Step identity: which of trace_id / step_index may appear without the other.
std::vector<Node> trace_id_and_step_index_go_together();  // receipts: each implies the other (two rules)
Node step_index_needs_trace_id();                         // traces up to v0.6.0
Node trace_id_and_step_index_both_or_neither();           // traces from v0.7.0

}  // namespace schema_authoring
