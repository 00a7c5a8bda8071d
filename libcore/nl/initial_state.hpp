#pragma once
// The context memory a level starts from (and returns to on reset), O-4: the rule's standalone
// initial state, since zeros are a fixed point for the MLP rules and not on the sphere for Lattice.
#include <cstdint>
#include <vector>

#include "nl/rule_config.hpp"

namespace nl {

// ((i * 2654435761) mod 2^32) / (2^32 - 1), in [0, 1] (nltrain-math §0).
[[nodiscard]] double hash01(std::uint64_t i);

template <typename T>
[[nodiscard]] std::vector<T> initial_state(RuleKind kind, const RuleConfig& cfg);

}  // namespace nl
