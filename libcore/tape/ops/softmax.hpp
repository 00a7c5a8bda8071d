#pragma once
// Row softmax and the fused softmax + cross-entropy loss.
// Rows: a rank-2 [r,c] tensor has r rows of c; rank 1 is one row (Shape::rows/cols).
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

[[nodiscard]] Tensor softmax(const Tensor& x);
// Mean over valid targets of -log softmax(logits[t])[targets[t]]; logits [n,V], targets n ids.
// An id >= V is ignored; with no valid target the loss is 0 with zero gradient (nltrain-math §9).
[[nodiscard]] Tensor cross_entropy(const Tensor& logits, std::span<const std::size_t> targets);

// Per row: subtract the max, exponentiate, divide by the sum when it is > 0.
template <typename T>
void softmax_forward(std::span<const T> x, std::span<T> out, std::size_t rows, std::size_t cols);
// Writes the row softmax into probs and returns the loss.
template <typename T>
[[nodiscard]] T cross_entropy_forward(std::span<const T> logits, std::span<const std::size_t> targets,
                                      std::size_t vocab, std::span<T> probs);

void backward(const SoftmaxOp& op, Tape& tape);
void backward(const CrossEntropyOp& op, Tape& tape);

}  // namespace tape::ops
