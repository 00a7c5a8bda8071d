#pragma once
// The opaque VJP adapters of every rule (active and frozen) and of SWA, and their registration
// in a tape registry (seed "Opaque VJP Registration"). Each adapter rebuilds the typed cache from
// the block's saved tensors and calls the rule's hand-written backward: no new gradient math.
//
// Saved-tensor layout the adapters read (written by record_block.cpp / swa.cpp):
//   active rule: {header, X, flat level params, cache layout, cache data}; inputs {X, params}
//   frozen rule: {header, state, cache layout, cache data};                inputs {Q~}
//   SWA:         {shape, Q, K, V, P};                                       inputs {Q, K, V}
#include "common/result.hpp"
#include "tape/opaque/opaque_registry.hpp"

namespace nl {

// Registers all 19 keys; fails when any key already has a function.
[[nodiscard]] common::Status register_opaque_vjps(tape::opaque::OpaqueRegistry& registry);

}  // namespace nl
