#pragma once
// A validated topology resolved to indices: which parameter carries each edge and each unit's bias.
// Building it enforces what the engine needs (the reference's assertTopologyValid): sizes match the
// unit orders, ids unique, parameters[i].id == parameter_order[i], weights wire adjacent layers
// with full unique fan-in, bias sharing consistent, softmax iff cross-entropy.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "receipt/topology/topology_input.hpp"

namespace receipt::topology {

// The engine's own ceiling per layer (receipts may exceed the input schema's 64).
inline constexpr std::size_t kMaxEngineLayerUnits = 512;

struct ParameterSlot {
  Role role = Role::input_to_hidden_weight;
  std::uint32_t from = 0;  // weights: index in the source layer; biases: the first unit it applies to
  std::uint32_t to = 0;    // weights: index in the target layer; biases: same as from
};

struct TopologyIndex {
  std::size_t n_in = 0, n_hid = 0, n_out = 0;
  std::vector<std::uint32_t> w_ih;         // [h * n_in + i] -> parameter index
  std::vector<std::uint32_t> w_ho;         // [o * n_hid + h] -> parameter index
  std::vector<std::uint32_t> bias_hidden;  // [h] -> parameter index
  std::vector<std::uint32_t> bias_output;  // [o] -> parameter index
  std::vector<ParameterSlot> slots;        // per parameter, in parameter_order
};

// Errors are invalid_argument with the JSON path (relative to the topology object) when one applies.
// The topology's errors carry paths relative to the topology object; this re-roots them.
[[nodiscard]] common::Error under_path(const common::Error& e, const std::string& prefix);

[[nodiscard]] common::Result<TopologyIndex> index_topology(const Topology& t,
                                                           std::size_t max_units = kMaxEngineLayerUnits);

}  // namespace receipt::topology
