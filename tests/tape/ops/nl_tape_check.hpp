#pragma once
// Runs one traced NL op on a tape with seeded upstream gradient w and returns the gradient of
// each registered input; also the output of the same op run without a tape (must be bitwise
// equal to the traced one: recording never changes the forward).
#include <doctest/doctest.h>

#include <functional>
#include <span>
#include <vector>

#include "tape/tape.hpp"

namespace tapetest {

struct TapeRun {
  std::vector<std::vector<float>> grads;  // one per input
  std::vector<float> traced_out, untraced_out;
  std::size_t records = 0;
};

using TracedOp = std::function<tape::Tensor(std::span<const tape::Tensor>)>;

[[nodiscard]] inline TapeRun run_on_tape(const TracedOp& op, const std::vector<std::vector<float>>& inputs,
                                         tape::Shape shape, const std::vector<float>& w) {
  TapeRun r;
  std::vector<tape::Tensor> plain;
  for (const auto& in : inputs) plain.push_back(tape::Tensor::from(in, shape));
  r.untraced_out = op(plain).to_vector();
  tape::with_tape([&](tape::Tape& t) {
    std::vector<tape::Tensor> ins;
    for (const auto& in : inputs) ins.push_back(t.register_input(in, shape));
    const tape::Tensor out = op(ins);
    r.records = t.ops().size();
    r.traced_out = out.to_vector();
    t.backward(out.id(), w);
    for (const auto& in : ins) r.grads.push_back(t.get_grad(in.id()));
  });
  return r;
}

}  // namespace tapetest
