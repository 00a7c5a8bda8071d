#include "receipt/topology/topology_input.hpp"

namespace receipt::topology {

const char* to_string(Role r) {
  switch (r) {
    case Role::input_to_hidden_weight: return "input_to_hidden_weight";
    case Role::hidden_to_output_weight: return "hidden_to_output_weight";
    case Role::hidden_bias: return "hidden_bias";
    case Role::output_bias: return "output_bias";
  }
  return "?";
}

const char* to_string(Activation a) {
  switch (a) {
    case Activation::sigmoid: return "sigmoid";
    case Activation::identity: return "identity";
    case Activation::relu: return "relu";
    case Activation::softmax: return "softmax";
  }
  return "?";
}

const char* to_string(Loss l) {
  switch (l) {
    case Loss::half_squared_error: return "half_squared_error";
    case Loss::cross_entropy_softmax: return "cross_entropy_softmax";
  }
  return "?";
}

const char* to_string(BiasSharing b) { return b == BiasSharing::per_layer ? "per_layer" : "per_neuron"; }

const char* to_string(BiasMode m) { return m == BiasMode::constant ? "constant" : "sgd"; }

}  // namespace receipt::topology
