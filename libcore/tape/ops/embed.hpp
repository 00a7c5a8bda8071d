#pragma once
// EmbedLookup: out[t] = table[indices[t]]; its VJP scatter-adds rows back into the table.
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

// table [V,d], n indices (each < V, else TapeError) -> [n,d].
[[nodiscard]] Tensor embed_lookup(const Tensor& table, std::span<const std::size_t> indices);

template <typename T>
void embed_lookup_forward(std::span<const T> table, std::span<const std::size_t> indices, std::size_t d,
                          std::span<T> out);

void backward(const EmbedLookupOp& op, Tape& tape);

}  // namespace tape::ops
