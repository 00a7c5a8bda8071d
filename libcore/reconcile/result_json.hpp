#pragma once
// A reconcile Result as the JSON object the reference's reconcileReceipt / reconcileMultiStep
// return (the `--json` form of `bp reconcile receipt` and the evidence of `bp verify`).
// Non-finite numbers become null, as JSON.stringify writes them.
#include <vector>

#include <nlohmann/json.hpp>

#include "reconcile/failure.hpp"

namespace reconcile {

[[nodiscard]] nlohmann::ordered_json to_json(const Failure& failure);
// The failures as a JSON array, in their order (the evidence of a failed `bp verify` reconcile check).
[[nodiscard]] nlohmann::ordered_json to_json(const std::vector<Failure>& failures);
// {ok, failures?, math_gate_skipped?, skipped_rules?, math_gate_skipped_records?, rules_evaluated?, gated_off?}
[[nodiscard]] nlohmann::ordered_json to_json(const Result& result);

}  // namespace reconcile
