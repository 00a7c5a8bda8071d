#pragma once
// The loss of the network's output and its gradient, in ATen's CPU formulas (loss.cpp).
#include <cstddef>
#include <span>
#include <vector>

#include "mlp_audit/either.hpp"
#include "mlp_audit/model.hpp"

namespace mlp_audit {

struct LossGradient {
  T32 loss;
  std::vector<T32> grad;  // dL/dy, [batch, classes]
};

// y: the last layer's output [batch, c]; target: class indices [batch] (cross_entropy) or
// values [batch, c].
[[nodiscard]] LossGradient loss_gradient(const Model& m, const std::vector<T32>& y, std::span<const float> target,
                                         std::size_t batch);

}  // namespace mlp_audit
