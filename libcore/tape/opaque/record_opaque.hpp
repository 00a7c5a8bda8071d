#pragma once
// record_opaque: the seed's Tape::record_opaque(key, inputs, outputs, saved) for a block whose
// forward the caller has already run (inside an UntracedScope). Under an active tape it
//   1. resolves `key` in `registry` (TapeError naming the key when it has no function),
//   2. copies each output and saved tensor into the tape as a new buffer (CS-47, CS-42),
//   3. appends one OpaqueOp; backward then calls the registered function and nothing else.
// Outputs carry a gradient when any input does. Without a tape it only wraps the outputs as
// tensors (CS-40: nothing recorded, the registry is not consulted).
#include <span>
#include <vector>

#include "tape/opaque/opaque_key.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/shape.hpp"
#include "tape/tensor.hpp"

namespace tape::opaque {

// A value produced by the block's forward: data (row-major) and its shape.
struct OpaqueValue {
  std::span<const float> data;
  Shape shape;
};

// Returns the outputs in order. Throws TapeError for a missing key, a value whose data does not
// match its shape, a non-finite output, or an input from another tape.
[[nodiscard]] std::vector<Tensor> record_opaque(const OpaqueRegistry& registry, OpaqueKey key,
                                                std::span<const Tensor> inputs,
                                                std::span<const OpaqueValue> outputs,
                                                std::span<const OpaqueValue> saved);

}  // namespace tape::opaque
