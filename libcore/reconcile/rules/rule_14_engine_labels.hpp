#pragma once
// Rule 14's labels (deliberate difference, bp verify general and multi; bp reconcile keeps the
// reference's verdicts): the names an observer-mode receipt gives its numbers must be the ones the
// engine gives them when it re-runs the step from the receipt's own topology. Its numbers are
// compared; without this a receipt could move a number's name (a contribution's via_weight, an
// update's from_unit or parameter_role, a factor's name, a summation_order, topology.layers) and
// still pass, misreporting which weight or unit a verified number belongs to.
//
// Compared: every string the engine writes under topology.layers, backward and updates (updates
// matched by parameter_id, other arrays by position), where the receipt has a value at the same
// place. What the receipt lacks or adds is the numeric comparison's (completeness) or the schema's.
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"

namespace reconcile::rules {

void compare_engine_labels(const Json& receipt, const receipt::engine::GeneralReceipt& engine, FailureSink& out);

}  // namespace reconcile::rules
