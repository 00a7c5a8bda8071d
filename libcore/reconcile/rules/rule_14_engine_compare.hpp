#pragma once
// Rule 14's comparisons of a receipt against the engine's recomputation of it, read from the
// engine's GeneralReceipt (no JSON document of the engine receipt is built). The order, the texts,
// the dedup of paths and the reference's throw on a null update are those of the reference's
// verifier over the engine's JSON receipt; tests/reconcile/rule_14_differential_tree.cpp keeps
// that JSON form as the oracle this one must match failure for failure.
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile::rules {

// Phase 1 (the reference's comparisons and completeness checks) then phase 2 (every other number
// the engine recomputed that the receipt claims at the same place), into `out`. Throws
// std::runtime_error with the reference's text when the receipt's updates[] holds a null (the
// reconciler's boundary turns it into the verdict the reference gives).
void compare_with_engine(const Json& receipt, const receipt::engine::GeneralReceipt& engine, Tolerance tolerance,
                         FailureSink& out);

}  // namespace reconcile::rules
