#include "mlp_audit/model.hpp"

namespace mlp_audit {

std::string activation_name(Activation a) {
  switch (a) {
    case Activation::identity: return "identity";
    case Activation::relu: return "relu";
    case Activation::leaky_relu: return "leaky_relu";
    case Activation::sigmoid: return "sigmoid";
    case Activation::tanh: return "tanh";
    case Activation::silu: return "silu";
  }
  return "identity";
}

std::vector<std::string> state_names(const Optimizer& o) {
  switch (o.kind) {
    case OptimizerKind::jax_sgd: return {};
    case OptimizerKind::jax_momentum:
    case OptimizerKind::jax_nesterov: return {"velocity"};
    case OptimizerKind::jax_adam: return {"m", "v"};
    default: break;
  }
  if (o.kind == OptimizerKind::sgd) return o.momentum != 0 ? std::vector<std::string>{"momentum_buffer"} : std::vector<std::string>{};
  std::vector<std::string> s{"exp_avg", "exp_avg_sq"};
  if (o.amsgrad) s.emplace_back("max_exp_avg_sq");
  return s;
}

}  // namespace mlp_audit
