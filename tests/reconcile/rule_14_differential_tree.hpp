#pragma once
// Rule 14's differential as it read the engine's JSON receipt (to_json of the GeneralReceipt), kept
// as the oracle of the struct form that replaced it (reconcile/rules/rule_14_engine_compare.cpp):
// both must report the same failures, field for field, in the same order.
#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/tolerance.hpp"

namespace rule14_tree {

// The engine receipt `engine` (to_json's document) against `receipt`; throws as the struct form does.
void compare_with_engine_tree(const reconcile::Tree& receipt, const reconcile::Tree& engine,
                              reconcile::Tolerance tolerance, reconcile::FailureSink& out);

}  // namespace rule14_tree
