#pragma once
// The VJP of an opaque block (a memory rule, SWA, or a frozen read): given the upstream gradient
// of each output and the tensors the block saved in its forward pass, write the gradient of each
// input. d_inputs arrive zero-filled and sized like the inputs; the function adds into them and
// must not resize them. A function may capture its rule's configuration (d, seq_len, ...).
#include <functional>
#include <span>
#include <vector>

#include "common/result.hpp"

namespace tape::opaque {

using ConstBuffers = std::span<const std::span<const float>>;

using OpaqueBackwardFn =
    std::function<common::Status(ConstBuffers d_outputs, ConstBuffers saved, std::span<std::vector<float>> d_inputs)>;

}  // namespace tape::opaque
