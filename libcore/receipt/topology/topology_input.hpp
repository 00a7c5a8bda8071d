#pragma once
// The topology+input model (what `bp generate from-config` reads, schema topology-input v0.4.0),
// extended with the softmax / cross-entropy surface that receipts carry so `reproduce` can share it.
// Value arrays are aligned with the orders: inputs[i] belongs to unit_order.input[i], and so on.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace receipt::topology {

// Size limits, checked before anything is allocated from a size the input claims.
inline constexpr std::size_t kMaxLayerUnits = 64;  // topology-input schema: input/hidden/output_size <= 64
// Every weight of two dense 64x64 edges plus a per-neuron bias for each hidden and output unit.
inline constexpr std::size_t kMaxParameters = 2 * kMaxLayerUnits * kMaxLayerUnits + 2 * kMaxLayerUnits;
inline constexpr std::size_t kMaxIdLength = 256;          // unit / parameter id, in bytes
inline constexpr std::size_t kMaxTextLength = 64 * 1024;  // free-text strings (metadata, bias_policy.reason)
// JSON values (every object, array, string, number, ...) a topology input within the limits above
// can hold: each parameter is at most 70 (its object, four strings, applies_to_units and its 64
// ids), so kMaxParameters of them make 582,400; parameter_order, parameters_before, unit_order,
// inputs, targets, layers and the policies add under 18,000. Every object is closed (unknown keys
// are refused), so nothing else can grow: 600,400 at most, rounded up here. A document of more
// values is refused before a tree of it is built (12 million empty objects, a 36 MB file, took
// 1.77 GB as a tree), so the tree of one that is not stays under about 60 MB.
inline constexpr std::size_t kMaxTopologyInputValues = 640 * 1024;

enum class Role { input_to_hidden_weight, hidden_to_output_weight, hidden_bias, output_bias };
enum class Activation { sigmoid, identity, relu, softmax };  // softmax: output layer only
enum class Loss { half_squared_error, cross_entropy_softmax };
enum class BiasSharing { per_layer, per_neuron };
enum class BiasMode { constant, sgd };

[[nodiscard]] const char* to_string(Role r);
[[nodiscard]] const char* to_string(Activation a);
[[nodiscard]] const char* to_string(Loss l);
[[nodiscard]] const char* to_string(BiasSharing b);
[[nodiscard]] const char* to_string(BiasMode m);

struct Parameter {
  std::string id;
  Role role = Role::input_to_hidden_weight;
  std::optional<std::string> from_unit;
  std::optional<std::string> to_unit;
  std::optional<std::vector<std::string>> applies_to_units;
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

struct UnitOrder {
  std::vector<std::string> input;
  std::vector<std::string> hidden;
  std::vector<std::string> output;
  friend bool operator==(const UnitOrder&, const UnitOrder&) = default;
};

struct Topology {
  UnitOrder unit_order;
  std::vector<std::string> parameter_order;
  std::vector<Parameter> parameters;
  Activation activation_hidden = Activation::sigmoid;
  Activation activation_output = Activation::sigmoid;
  Loss loss = Loss::half_squared_error;
  BiasSharing bias_sharing = BiasSharing::per_layer;
  std::int64_t input_size = 0;
  std::int64_t hidden_size = 0;
  std::int64_t output_size = 0;
  friend bool operator==(const Topology&, const Topology&) = default;
};

// Echoed verbatim into receipts; kept as canonical-order JSON
// (number_encoding, precision_significant_digits, rounding, tolerance, computation_order, byte_output).
struct NumericPolicy {
  nlohmann::ordered_json json;
};

struct BiasPolicy {
  BiasMode mode = BiasMode::constant;
  nlohmann::ordered_json json;  // canonical order: mode, reason?, updated_in_step, reconciliation?
};

// Receipts carry only these three metadata keys; others are dropped (as the reference does).
struct Metadata {
  std::string source;
  std::optional<std::string> url_reference;
  std::string gradient_convention;
};

struct TopologyInput {
  Topology topology;
  double learning_rate = 0;
  std::vector<double> inputs;             // aligned with topology.unit_order.input
  std::vector<double> targets;            // aligned with topology.unit_order.output
  std::vector<double> parameters_before;  // aligned with topology.parameter_order
  NumericPolicy numeric_policy;
  BiasPolicy bias_policy;
  std::optional<std::string> fixture;
  std::optional<Metadata> metadata;
  std::optional<std::string> trace_id;
  std::optional<std::int64_t> step_index;
};

}  // namespace receipt::topology
