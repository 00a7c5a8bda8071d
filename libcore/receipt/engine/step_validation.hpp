#pragma once
// What the engine checks before a step (the reference's runGeneralStep guards): a valid topology,
// finite values, a consistent optimizer configuration and state, normalised cross-entropy targets.
#include "common/result.hpp"
#include "receipt/engine/general_input.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::engine {

[[nodiscard]] common::Result<topology::TopologyIndex> check_general_input(const GeneralInput& in);
[[nodiscard]] common::Result<topology::TopologyIndex> check_batched_input(const GeneralInput& in);

// Tolerance on sum(targets) == 1 for cross_entropy_softmax.
inline constexpr double kTargetNormalizationAtol = 1e-9;

}  // namespace receipt::engine
