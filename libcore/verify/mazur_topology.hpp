#pragma once
// The `topology` check of `bp verify mazur`: what a v0.1.0 receipt declares about its network
// (topology.layers, input_size, hidden_size, output_size, bias_sharing; bias_policy.updated_in_step)
// against the network the receipt actually carries (inputs, targets, forward units, the biases in
// parameters_before and parameters_after). The engine echoes the declared topology, so neither
// reconcile nor engine-reproduce can see a wrong one. Only a mismatch adds the check to the report:
// on a consistent receipt the report stays the reference's, line for line.
#include <optional>

#include <nlohmann/json.hpp>

#include "verify/report.hpp"

namespace verify {

[[nodiscard]] std::optional<Check> mazur_topology_check(const nlohmann::ordered_json& receipt);

}  // namespace verify
