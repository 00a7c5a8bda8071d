#pragma once
// record_opaque: the seed's Tape::record_opaque(key, inputs, outputs, saved) for a block whose
// forward the caller has already run (inside an UntracedScope). Under an active tape it
//   1. resolves `key` in `registry` (TapeError naming the key when it has no function),
//   2. copies each output and saved tensor into the tape as a new buffer (CS-47, CS-42),
//   3. appends one OpaqueOp; backward then calls the registered function and nothing else.
// Outputs carry a gradient when any input does. Without a tape it only wraps the outputs as
// tensors (CS-40: nothing recorded, the registry is not consulted).
#include <memory>
#include <span>
#include <vector>

#include "tape/context_spill.hpp"
#include "tape/opaque/opaque_key.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/shape.hpp"
#include "tape/tensor.hpp"

namespace tape::opaque {

// A value produced by the block's forward: data (row-major) and its shape. in_context: the data
// lives in the block's context object (below), so the tape aliases it instead of copying it.
struct OpaqueValue {
  std::span<const float> data;
  Shape shape;
  bool in_context = false;
};

// Returns the outputs in order. Throws TapeError for a missing key, a value whose data does not
// match its shape, a non-finite output, or an input from another tape.
[[nodiscard]] std::vector<Tensor> record_opaque(const OpaqueRegistry& registry, OpaqueKey key,
                                                std::span<const Tensor> inputs,
                                                std::span<const OpaqueValue> outputs,
                                                std::span<const OpaqueValue> saved);

// The same for a block that hands the tape its typed forward state: the record owns `context`
// (saved values marked in_context alias it, no copy) and backward calls the registry's in-place
// function for `key` with it. Also throws for a key without an in-place function, and for a value
// marked in_context without a context. A saved value that is exactly an input's data reuses the
// input's buffer (tensors are immutable). `fields` (optional) visits the context's float fields,
// so the tape's ContextSpill hook (context_spill.hpp) can move them out of RAM and back.
[[nodiscard]] std::vector<Tensor> record_opaque(const OpaqueRegistry& registry, OpaqueKey key,
                                                std::span<const Tensor> inputs,
                                                std::span<const OpaqueValue> outputs,
                                                std::span<const OpaqueValue> saved,
                                                std::shared_ptr<const void> context,
                                                ContextFieldsFn fields = nullptr);

}  // namespace tape::opaque
