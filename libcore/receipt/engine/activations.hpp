#pragma once
// Activations and their derivatives written in terms of the unit's output, as the receipts record them.
#include <cstddef>

#include "receipt/topology/topology_input.hpp"

namespace receipt::engine {

// sigmoid(x) = 1 / (1 + exp(-x)) with V8's exp; identity; relu(x) = x > 0 ? x : 0.
[[nodiscard]] double activate(topology::Activation a, double x);

// sigmoid: out * (1 - out); identity: 1; relu: out > 0 ? 1 : 0. (Not defined for softmax.)
[[nodiscard]] double derivative_from_out(topology::Activation a, double out);

// Numerically shifted softmax: exp(z_i - max z) / sum, summed left to right from 0.
// `out` may alias nothing in `logits`; n >= 1.
void softmax(const double* logits, double* out, std::size_t n);

}  // namespace receipt::engine
