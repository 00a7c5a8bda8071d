#pragma once
// L2Retention: out = lambda * x, with lambda a constant gate value (a learnable lambda flows
// through the op that produced it, not through this one).
#include "tape/tape.hpp"

namespace tape::ops {

[[nodiscard]] Tensor l2_retention(const Tensor& x, float lambda);

void backward(const L2RetentionOp& op, Tape& tape);

}  // namespace tape::ops
