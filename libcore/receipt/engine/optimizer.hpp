#pragma once
// One parameter's optimizer update. Gradients are in descent direction (the receipts' convention:
// gradient = signal * upstream, update added to the weight), so every rule adds its update.
#include "common/result.hpp"
#include "receipt/engine/general_input.hpp"

namespace receipt::engine {

struct ParameterUpdate {
  double update = 0;
  double weight_after = 0;
  OptimizerState state_after;
};

// Plain SGD when `config` is null. Coupled L2 (sgd, sgd_momentum): g' = g - wd * w before the rule.
// Momentum: b' = mu*b + (1 - tau)*g'; Nesterov uses g' + mu*b'. Adam/AdamW: bias-corrected moments,
// update = (lr * m_hat) / (sqrt(v_hat) + eps); AdamW decays the weight: (1 - lr*wd) * w + update.
[[nodiscard]] ParameterUpdate apply_optimizer(const OptimizerConfig* config, double learning_rate,
                                              double weight_before, double gradient, const OptimizerState& before);

// The engine's checks of an optimizer configuration against the learning rate (messages name the field).
[[nodiscard]] common::Status check_optimizer_config(const OptimizerConfig& config, double learning_rate);

}  // namespace receipt::engine
