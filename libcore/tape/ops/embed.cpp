#include "tape/ops/embed.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

template <typename T>
void embed_lookup_forward(std::span<const T> table, std::span<const std::size_t> indices, std::size_t d,
                          std::span<T> out) {
  for (std::size_t t = 0; t < indices.size(); ++t)
    std::copy_n(table.data() + indices[t] * d, d, out.data() + t * d);
}

template void embed_lookup_forward<float>(std::span<const float>, std::span<const std::size_t>, std::size_t,
                                          std::span<float>);
template void embed_lookup_forward<double>(std::span<const double>, std::span<const std::size_t>, std::size_t,
                                           std::span<double>);
template void embed_lookup_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const std::size_t>, std::size_t,
                                           std::span<common::Tracked<float>>);
template void embed_lookup_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const std::size_t>, std::size_t,
                                           std::span<common::Tracked<double>>);

Tensor embed_lookup(const Tensor& table, std::span<const std::size_t> indices) {
  const Shape& s = table.shape();
  if (s.rank() != 2) throw TapeError("EmbedLookup", "table must have rank 2 [vocab, d]", {s});
  const std::size_t vocab = s.dim(0), d = s.dim(1);
  for (std::size_t t = 0; t < indices.size(); ++t) {
    if (indices[t] >= vocab) {
      throw TapeError("EmbedLookup",
                      "index " + std::to_string(indices[t]) + " at position " + std::to_string(t) +
                          " is out of range for vocab " + std::to_string(vocab),
                      {s});
    }
  }
  Recorder rec("EmbedLookup");
  const BufId it = rec.input(table);
  NewBuffer out = rec.output(Shape{indices.size(), d});
  embed_lookup_forward<float>(table.data(), indices, d, out.data);  // copies: finite when the table is
  rec.record(EmbedLookupOp{it, std::vector<std::size_t>(indices.begin(), indices.end()), out.tensor.id(), vocab, d});
  return std::move(out.tensor);
}

// d_table[indices[t]] += d_out[t] (scatter-add: repeated tokens accumulate)
void backward(const EmbedLookupOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dt = tape.grad_accumulator(op.table);
  if (g.empty() || dt.empty()) return;
  for (std::size_t t = 0; t < op.indices.size(); ++t) {
    float* row = dt.data() + op.indices[t] * op.d;
    const float* gr = g.data() + t * op.d;
    for (std::size_t j = 0; j < op.d; ++j) row[j] += gr[j];
  }
}

}  // namespace tape::ops
