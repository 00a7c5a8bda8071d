#include "tape/ops/nl_straight_through.hpp"

#include <cassert>
#include <utility>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

template <typename T>
void straight_through_bool_forward(std::span<const T> x, T threshold, std::span<T> out) {
  assert(out.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] > threshold ? T(1) : T(0);
}

template <typename T>
void straight_through_bool_backward(std::span<const T> d_out, std::span<T> d_x) {
  assert(d_x.size() == d_out.size());
  for (std::size_t i = 0; i < d_out.size(); ++i) d_x[i] += d_out[i];
}

template void straight_through_bool_forward<float>(std::span<const float>, float, std::span<float>);
template void straight_through_bool_forward<double>(std::span<const double>, double, std::span<double>);
template void straight_through_bool_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, common::Tracked<float>, std::span<common::Tracked<float>>);
template void straight_through_bool_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, common::Tracked<double>, std::span<common::Tracked<double>>);
template void straight_through_bool_backward<float>(std::span<const float>, std::span<float>);
template void straight_through_bool_backward<double>(std::span<const double>, std::span<double>);
template void straight_through_bool_backward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<common::Tracked<float>>);
template void straight_through_bool_backward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<common::Tracked<double>>);

namespace {

void straight_through_vjp(const CustomOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.outputs[0]);
  const std::span<float> dx = tape.grad_accumulator(op.inputs[0]);
  if (!g.empty() && !dx.empty()) straight_through_bool_backward<float>(g, dx);
}

}  // namespace

Tensor straight_through_bool(const Tensor& x, float threshold) {
  Recorder rec("StraightThroughBool");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  straight_through_bool_forward<float>(x.data(), threshold, out.data);
  if (rec.recording()) {
    rec.record(CustomOp{.name = "StraightThroughBool",
                        .backward = straight_through_vjp,
                        .inputs = {ix},
                        .outputs = {out.tensor.id()},
                        .saved = {},
                        .scalars = {threshold, 0.0f, 0.0f, 0.0f},
                        .dims = {}});  // ids minted by this Recorder: no re-validation
  }
  return std::move(out.tensor);
}

}  // namespace tape::ops
