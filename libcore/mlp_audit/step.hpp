#pragma once
// One training step of an `mlp` receipt recomputed in binary64 with common::Tracked<float>: every
// value carries a bound on how far torch's fp32 evaluation of the same formula can be (BLAS
// products in any summation order through tape::tracked_gemm). The forward and backward start
// from the receipt's parameters and batch; the optimizer update starts from the receipt's stored
// gradients (exact fp32 inputs), so a wrong gradient and a wrong update fail separate rules.
#include <cstdint>
#include <span>
#include <vector>

#include "common/tracked.hpp"
#include "mlp_audit/model.hpp"

namespace mlp_audit {

using T32 = common::Tracked<float>;

// Parameters in receipt order: layer 0 weight [out, in], layer 0 bias [out], layer 1 weight, ...
using Params = std::vector<std::vector<float>>;

struct Backprop {
  T32 loss;
  std::vector<std::vector<T32>> gradients;  // in parameter order
  // Kink entries (ReLU, LeakyReLU) whose input lay within its bound of 0: torch may have taken
  // either side; the derivative is carried as the interval between both slopes (a wider bound).
  std::uint64_t kinks = 0;
};

// x: [batch, in0]; target: class indices (cross_entropy, [batch]) or values ([batch, out_last]);
// masks: one [batch, out] mask of 0s and 1s per layer with dropout, in layer order.
[[nodiscard]] Backprop forward_backward(const Model& m, const Params& params, std::span<const float> x,
                                        std::span<const float> target, std::size_t batch,
                                        const std::vector<std::vector<float>>& masks = {});

struct Update {
  std::vector<std::vector<T32>> params;  // in parameter order
  std::vector<std::vector<std::vector<T32>>> state;  // per state name (state_names order), per parameter
};

// One optimizer step at learning rate `lr`; `step` is the optimizer's step count after it (torch's
// state["step"]: 1 on the first step). state[s][p]: state tensor s of parameter p before the step
// (zeros before the first).
[[nodiscard]] Update optimizer_update(const Optimizer& o, double lr, std::uint64_t step, const Params& params,
                                      const std::vector<std::vector<T32>>& gradients, const std::vector<Params>& state);

// torch.nn.utils.clip_grad_norm_(params, max_norm) on these gradients (norm type 2): the total
// norm it returns, and the gradients it leaves (each multiplied by min(1, max_norm / (norm + 1e-6))).
struct Clip {
  T32 total_norm;
  std::vector<std::vector<T32>> gradients;
};
[[nodiscard]] Clip clip_grad_norm(const Params& gradients, double max_norm);
[[nodiscard]] std::vector<std::vector<T32>> exact_all(const Params& values);

}  // namespace mlp_audit
