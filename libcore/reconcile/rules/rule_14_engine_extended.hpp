#pragma once
// Rule 14's phase 2 (a deliberate difference from the reference): every number the engine
// recomputed that phase 1 did not compare, where the receipt claims a number at the same place.
// Phase 2 visits only those places (factor values, downstream contributions, weight_before, the
// per-update learning rate, state_before, loss.per_sample, a sample's inputs and targets, ...),
// not every place and a set of the paths phase 1 compared: what phase 1 compares is fixed by the
// receipt's shape, and the set of paths was a fifth of Rule 14's time.
#include <string>
#include <string_view>
#include <unordered_map>

#include "receipt/engine/general_receipt.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/rules/rule_14_engine_keys.hpp"
#include "reconcile/rules/rule_14_findings.hpp"

namespace reconcile::rules::rule14 {

// The receipt's updates[] entries by parameter_id (the last entry of an id wins).
using UpdatesById = std::unordered_map<std::string, const Json*>;

// Whether phase 1 compares this update's optimizer.state_after: when the update names the
// engine's optimizer and carries a state_after (phase 2 compares it otherwise).
[[nodiscard]] bool state_after_compared(const Json& update, std::string_view optimizer_name);

// The units of a receipt's post_update_forward: its "units" member when that is an object or
// array, else the block itself.
[[nodiscard]] const Json* post_forward_units(const Json* post_update_forward);

void compare_extended(const Json& receipt, const receipt::engine::GeneralReceipt& engine, const EngineKeys& keys,
                      const UpdatesById& updates, Findings& findings);

}  // namespace reconcile::rules::rule14
