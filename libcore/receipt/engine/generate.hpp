#pragma once
// Receipt generation entry points used by `bp generate` and `bp scaffold topology`.
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/engine/engine_receipt.hpp"
#include "receipt/topology/topology_input.hpp"

namespace receipt::engine {

// Builtin generators: "mazur", "xor", "iris", "xor-per-neuron-bias", "softmax-ce", "xor-multi-step".
// Returns one receipt per step, in order. Unknown name -> invalid_argument.
[[nodiscard]] common::Result<std::vector<EngineReceipt>> generate_builtin(std::string_view name);

// Names accepted by generate_builtin, in display order.
[[nodiscard]] const std::vector<std::string_view>& builtin_names();

// One receipt from a parsed topology input (schema topology-input v0.4.0).
[[nodiscard]] common::Result<std::vector<EngineReceipt>> generate_from_config(
    const receipt::topology::TopologyInput& input);

// The sample topology-input document for "mazur" | "xor" | "iris" (`bp scaffold topology`), in the
// reference's key order. Integral numbers are stored as JSON integers (JavaScript prints 1, not 1.0).
[[nodiscard]] common::Result<nlohmann::ordered_json> scaffold_topology(std::string_view name);

}  // namespace receipt::engine
