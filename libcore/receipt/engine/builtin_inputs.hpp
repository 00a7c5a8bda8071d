#pragma once
// The reference's shipped example inputs (published numbers: Mazur's worked example, XOR, the first
// iris flower, a softmax+CE sample), as GeneralInputs over dense 3-layer topologies.
#include <string>
#include <string_view>
#include <vector>

#include "receipt/engine/general_input.hpp"

namespace receipt::engine {

struct DenseNames {
  std::vector<std::string> input, hidden, output;
};

// A fully connected topology whose weights are ordered by target unit (all weights into h1, then
// h2, ...), then the biases. `weight_id(from, to, index)` names each weight; biases are
// `hidden_bias`/`output_bias` (per_layer) or one per unit named "b_<unit>" (per_neuron).
[[nodiscard]] topology::Topology dense_topology(const DenseNames& names, topology::BiasSharing sharing,
                                                std::string (*weight_id)(const std::string& from, const std::string& to,
                                                                         std::size_t index),
                                                const std::string& hidden_bias, const std::string& output_bias);

[[nodiscard]] topology::Topology mazur_topology();
[[nodiscard]] topology::NumericPolicy numeric_policy_v01();  // scalar tolerance 1e-9
[[nodiscard]] topology::NumericPolicy numeric_policy(double atol, double rtol);
[[nodiscard]] topology::BiasPolicy mazur_bias_policy();
[[nodiscard]] topology::BiasPolicy constant_bias_policy_v03();
[[nodiscard]] topology::BiasPolicy per_neuron_sgd_bias_policy();

[[nodiscard]] GeneralInput xor_input();
[[nodiscard]] GeneralInput xor_per_neuron_bias_input();
[[nodiscard]] GeneralInput iris_input();
[[nodiscard]] GeneralInput softmax_ce_input();
// Mazur's example as a general (v0.2.0) input, as `bp scaffold topology --topology mazur` writes it.
[[nodiscard]] GeneralInput mazur_general_input();

}  // namespace receipt::engine
