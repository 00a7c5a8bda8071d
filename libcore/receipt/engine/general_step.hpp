#pragma once
// One training step of the general engine (input -> hidden -> output) as a JSON receipt in the
// schema version the reference writes for that configuration (v0.2.0 .. v0.8.0), with the
// floating-point operation order of the reference so that every value is bit-identical.
#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/engine/general_input.hpp"

namespace receipt::engine {

// Single-sample step (input.batch must be empty).
[[nodiscard]] common::Result<nlohmann::ordered_json> run_general_step(const GeneralInput& input);

// Batched step: per-sample forward/backward, reduced gradient, one SGD update (plain SGD only).
[[nodiscard]] common::Result<nlohmann::ordered_json> run_batched_general_step(const GeneralInput& input);

// Validates the topology's internal consistency (ids, roles, orders, bias sharing) as the engine needs it.
[[nodiscard]] common::Status validate_topology(const topology::Topology& t);

}  // namespace receipt::engine
