// Tape::backward: seed the output gradient, then run every record's VJP in reverse order.
#include <algorithm>
#include <string>

#include "tape/float_pool.hpp"
#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/embed.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/ops/reshape.hpp"
#include "tape/ops/retention.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/tape.hpp"

namespace tape {
namespace {

void run_custom(const CustomOp& op, Tape& tape) { op.backward(op, tape); }

void run_opaque(const OpaqueOp& op, Tape& tape) {
  // Views of upstream gradients (zeros where an output carries none) and of the saved values.
  std::vector<std::vector<float>> zero_outputs;
  zero_outputs.reserve(op.outputs.size());  // spans below point into it
  std::vector<std::span<const float>> d_outputs;
  d_outputs.reserve(op.outputs.size());
  for (BufId id : op.outputs) {
    std::span<const float> g = tape.grad(id);
    if (g.empty()) {
      zero_outputs.emplace_back(tape.shape(id).numel(), 0.0f);
      g = zero_outputs.back();
    }
    d_outputs.push_back(g);
  }
  std::vector<std::span<const float>> saved;
  saved.reserve(op.saved.size());
  for (BufId id : op.saved) saved.push_back(tape.data(id));
  // Scratch gradients, added into the accumulators afterwards: the registry functions write
  // d_inputs as plain outputs (seed adapter style), so they must not see other contributions.
  std::vector<std::vector<float>> scratch;
  scratch.reserve(op.inputs.size());
  std::vector<std::span<float>> d_inputs;
  d_inputs.reserve(op.inputs.size());
  for (BufId id : op.inputs) {
    scratch.emplace_back(tape.shape(id).numel(), 0.0f);
    d_inputs.push_back(scratch.back());
  }
  if (op.context != nullptr) {
    op.context_backward(op.context.get(), d_outputs, saved, d_inputs);
  } else {
    op.backward(d_outputs, saved, d_inputs);
  }
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    std::span<float> acc = tape.grad_accumulator(op.inputs[i]);
    for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += scratch[i][j];
  }
}

struct Dispatch {
  Tape& tape;
  void operator()(const CustomOp& op) const { run_custom(op, tape); }
  void operator()(const OpaqueOp& op) const { run_opaque(op, tape); }
  template <typename Op>
  void operator()(const Op& op) const {
    ops::backward(op, tape);
  }
};

}  // namespace

void Tape::backward(BufId loss) {
  const TapeBuf& b = buf(loss, "backward");
  if (b.shape.numel() != 1) {
    throw TapeError("backward", "loss must be a scalar (one element); seed a non-scalar output explicitly",
                    {b.shape});
  }
  const float one = 1.0f;
  backward(loss, std::span<const float>(&one, 1));
}

void Tape::backward(BufId output, std::span<const float> seed) {
  const TapeBuf& b = buf(output, "backward");
  if (backward_done_) throw TapeError("backward", "backward already ran on this tape", {b.shape});
  if (seed.size() != b.shape.numel()) {
    throw TapeError("backward",
                    "seed holds " + std::to_string(seed.size()) + " values, output has " +
                        std::to_string(b.shape.numel()),
                    {b.shape});
  }
  backward_done_ = true;
  grads_ = FloatPool::local().take(grad_floats_);
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  if (b.requires_grad) {
    float* g = grads_.data() + b.grad_offset;
    for (std::size_t i = 0; i < seed.size(); ++i) g[i] = seed[i];
  }
  const Dispatch dispatch{*this};
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
    auto* op = std::get_if<OpaqueOp>(&*it);
    const bool hooked = spill_ != nullptr && op != nullptr && op->context != nullptr && op->context_fields != nullptr;
    const ContextRef ref{static_cast<std::size_t>(ops_.rend() - it) - 1, hooked ? context_bytes(*op) : 0};
    if (hooked) spill_->needed(*this, ref);
    std::visit(dispatch, *it);
    // A block's typed forward state (a rule's cache, often (s+1) d^2 floats) is dead once its VJP
    // ran: freeing it here lets the rest of backward reuse the memory instead of growing the heap.
    if (op != nullptr && op->context != nullptr) release_context(*op);
    if (hooked) spill_->released(*this, ref);
  }
}

}  // namespace tape
