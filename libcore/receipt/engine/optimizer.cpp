#include "receipt/engine/optimizer.hpp"

#include <cmath>
#include <string>

#include "receipt/engine/fdlibm.hpp"

namespace receipt::engine {

const char* to_string(OptimizerName n) {
  switch (n) {
    case OptimizerName::sgd: return "sgd";
    case OptimizerName::sgd_momentum: return "sgd_momentum";
    case OptimizerName::adam: return "adam";
    case OptimizerName::adamw: return "adamw";
  }
  return "?";
}

const char* to_string(Reduction r) {
  switch (r) {
    case Reduction::mean: return "mean";
    case Reduction::sum: return "sum";
    case Reduction::none: return "none";
  }
  return "?";
}

ParameterUpdate apply_optimizer(const OptimizerConfig* config, double lr, double w, double g,
                                const OptimizerState& before) {
  ParameterUpdate out;
  const OptimizerName name = config != nullptr ? config->name : OptimizerName::sgd;
  if (name == OptimizerName::sgd || name == OptimizerName::sgd_momentum) {
    const double wd = config != nullptr ? config->weight_decay.value_or(0.0) : 0.0;
    const double g_eff = g - wd * w;
    if (name == OptimizerName::sgd) {
      out.update = lr * g_eff;
    } else {
      const double mu = config->momentum.value_or(0.0);
      const double tau = config->dampening.value_or(0.0);
      const double buffer = mu * before.buffer + (1.0 - tau) * g_eff;
      const double effective = config->nesterov.value_or(false) ? g_eff + mu * buffer : buffer;
      out.state_after.buffer = buffer;
      out.update = lr * effective;
    }
    out.weight_after = w + out.update;
    return out;
  }
  const double b1 = config->beta1.value_or(0.0);
  const double b2 = config->beta2.value_or(0.0);
  const double t = static_cast<double>(config->t.value_or(1));
  const double m = b1 * before.m + (1.0 - b1) * g;
  const double v = b2 * before.v + (1.0 - b2) * (g * g);
  const double m_hat = m / (1.0 - fdlibm::pow(b1, t));
  const double v_hat = v / (1.0 - fdlibm::pow(b2, t));
  out.update = (lr * m_hat) / (std::sqrt(v_hat) + config->epsilon.value_or(0.0));
  out.state_after.m = m;
  out.state_after.v = v;
  if (name == OptimizerName::adamw) {
    out.weight_after = (1.0 - lr * config->weight_decay.value_or(0.0)) * w + out.update;
  } else {
    out.weight_after = w + out.update;
  }
  return out;
}

namespace {
common::Error config_error(const std::string& field, const std::string& message) {
  return common::Error::invalid_argument("optimizer_config." + field + " " + message,
                                         common::Location{{}, 0, "/optimizer_config/" + field});
}
}  // namespace

common::Status check_optimizer_config(const OptimizerConfig& c, double learning_rate) {
  if (c.learning_rate != learning_rate) return config_error("learning_rate", "must equal learning_rate");
  const bool adam_family = c.name == OptimizerName::adam || c.name == OptimizerName::adamw;
  const auto forbid = [&](bool present, const char* field) -> common::Status {
    if (present) return config_error(field, std::string("is not a field of optimizer '") + to_string(c.name) + "'");
    return {};
  };
  if (!adam_family) {
    for (const auto& [present, field] : {std::pair{c.beta1.has_value(), "beta1"}, std::pair{c.beta2.has_value(), "beta2"},
                                         std::pair{c.epsilon.has_value(), "epsilon"}, std::pair{c.t.has_value(), "t"}}) {
      if (auto s = forbid(present, field); !s) return s;
    }
  }
  if (c.name != OptimizerName::sgd_momentum) {
    for (const auto& [present, field] : {std::pair{c.momentum.has_value(), "momentum"},
                                         std::pair{c.nesterov.has_value(), "nesterov"},
                                         std::pair{c.dampening.has_value(), "dampening"}}) {
      if (auto s = forbid(present, field); !s) return s;
    }
  }
  if (c.weight_decay && !(std::isfinite(*c.weight_decay) && *c.weight_decay >= 0)) {
    return config_error("weight_decay", "must be a finite number >= 0");
  }
  if (c.name == OptimizerName::adam) {
    if (auto s = forbid(c.weight_decay.has_value(), "weight_decay"); !s) return s;
  }
  if (c.name == OptimizerName::sgd_momentum) {
    if (!c.momentum) return config_error("momentum", "is required for sgd_momentum");
    if (!(*c.momentum > 0 && *c.momentum < 1)) return config_error("momentum", "must be in (0, 1)");
    if (c.dampening && !(*c.dampening >= 0 && *c.dampening < 1)) return config_error("dampening", "must be in [0, 1)");
    if (c.nesterov.value_or(false) && c.dampening.value_or(0.0) != 0) {
      return config_error("dampening", "must be 0 or absent when nesterov is true");
    }
  }
  if (adam_family) {
    if (!c.beta1 || !(*c.beta1 > 0 && *c.beta1 < 1)) return config_error("beta1", "must be in (0, 1)");
    if (!c.beta2 || !(*c.beta2 > 0 && *c.beta2 < 1)) return config_error("beta2", "must be in (0, 1)");
    if (!c.epsilon || !(std::isfinite(*c.epsilon) && *c.epsilon > 0)) return config_error("epsilon", "must be > 0");
    if (!c.t || *c.t < 1) return config_error("t", "must be an integer >= 1");
    if (c.name == OptimizerName::adamw && !c.weight_decay) return config_error("weight_decay", "is required for adamw");
  }
  return {};
}

}  // namespace receipt::engine
