#pragma once
// OpaqueRegistry: maps each OpaqueKey to the backward function of its block. It is a plain
// object owned by the caller (no process-wide registry): the tape that records opaque blocks is
// given the registry it dispatches to, so two trainers can run different rule sets side by side.
#include <array>

#include "common/result.hpp"
#include "tape/opaque/opaque_backward_fn.hpp"
#include "tape/opaque/opaque_key.hpp"

namespace tape::opaque {

class OpaqueRegistry {
 public:
  // Fails (invalid_argument) when fn is empty or when the key already has a function:
  // a second registration is almost always two rules claiming one key.
  [[nodiscard]] common::Status register_backward(OpaqueKey key, OpaqueBackwardFn fn);

  [[nodiscard]] bool contains(OpaqueKey key) const { return static_cast<bool>(fns_[index_of(key)]); }

  // Calls the key's function. d_inputs must be sized like the block's inputs; they are zeroed
  // here first. Errors: the key has no function (unsupported), the function failed (its error,
  // prefixed with the key), or it resized a d_input (invalid_argument).
  [[nodiscard]] common::Status run_backward(OpaqueKey key, ConstBuffers d_outputs, ConstBuffers saved,
                                            std::span<std::vector<float>> d_inputs) const;

 private:
  std::array<OpaqueBackwardFn, kOpaqueKeyCount> fns_{};
};

}  // namespace tape::opaque
