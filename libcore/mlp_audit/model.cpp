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
    case Activation::gelu: return "gelu";
    case Activation::gelu_tanh: return "gelu_tanh";
  }
  return "identity";
}

std::size_t parameter_count(const Model& m) {
  std::size_t n = 0;
  for (const Layer& l : m.layers) n += l.norm && l.norm->affine ? 4 : 2;
  return n;
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
