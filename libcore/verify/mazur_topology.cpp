#include "verify/mazur_topology.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/js_json_text.hpp"

namespace verify {
namespace {

using nlohmann::ordered_json;

const ordered_json& member_or_null(const ordered_json& obj, const char* key) {
  static const ordered_json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::vector<std::string> keys_of(const ordered_json& obj) {
  std::vector<std::string> out;
  if (!obj.is_object()) return out;
  for (auto it = obj.begin(); it != obj.end(); ++it) out.push_back(it.key());
  return out;
}

std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The units the receipt really computes: its inputs and targets name the input and output units,
// and every other unit of the forward pass is a hidden one.
struct Network {
  std::vector<std::string> inputs, hidden, outputs, biases;
};

Network network_of(const ordered_json& receipt) {
  Network n;
  n.inputs = keys_of(member_or_null(receipt, "inputs"));
  n.outputs = keys_of(member_or_null(receipt, "targets"));
  for (const auto& unit : keys_of(member_or_null(receipt, "forward"))) {
    bool is_output = false;
    for (const auto& o : n.outputs) is_output = is_output || o == unit;
    if (!is_output) n.hidden.push_back(unit);
  }
  // v0.1.0 names biases b1, b2, ... and weights w1, w2, ... in parameters_before.
  for (const auto& p : keys_of(member_or_null(receipt, "parameters_before"))) {
    if (!p.empty() && p[0] == 'b') n.biases.push_back(p);
  }
  return n;
}

// One mismatch: the sentence for the report line and a record (field, declared, actual) for --json.
struct Issues {
  std::vector<std::string> text;
  ordered_json records = ordered_json::array();
  void add(const char* field, const ordered_json& declared, ordered_json actual, std::string sentence) {
    records.push_back(ordered_json{{"field", field}, {"declared", declared}, {"actual", std::move(actual)}});
    text.push_back(std::move(sentence));
  }
};

ordered_json layers_of(const Network& n) {
  ordered_json layers = ordered_json::array({"input"});
  if (!n.hidden.empty()) layers.push_back("hidden");
  layers.push_back("output");
  return layers;
}

void check_size(const ordered_json& topology, const char* key, const std::vector<std::string>& units,
                const char* what, Issues& issues) {
  const ordered_json& declared = member_or_null(topology, key);
  if (declared.is_number_integer() && declared.get<long long>() == static_cast<long long>(units.size())) return;
  const std::string field = std::string("topology.") + key;
  issues.add(field.c_str(), declared, units.size(),
             field + " is " + common::js_stringify(declared) + " but the receipt's network has " +
                 std::to_string(units.size()) + " " + what + " (" + listed(units) + ")");
}

// per_layer: one bias for each layer after the input; per_neuron: one for each hidden and output unit.
void check_biases(const ordered_json& topology, const Network& n, std::size_t layer_count,
                  Issues& issues) {
  const ordered_json& sharing = member_or_null(topology, "bias_sharing");
  if (!sharing.is_string()) return;  // optional in v0.1.0; the engine refuses any sharing but per_layer
  std::size_t expected = 0;
  if (sharing == "per_layer") {
    expected = layer_count - 1;
  } else if (sharing == "per_neuron") {
    expected = n.hidden.size() + n.outputs.size();
  } else {
    return;  // the schema admits no other value
  }
  if (expected == n.biases.size()) return;
  issues.add("topology.bias_sharing", sharing, n.biases.size(),
             "topology.bias_sharing is " + common::js_stringify(sharing) + ", which needs " + std::to_string(expected) +
                 " bias(es), but parameters_before has " + std::to_string(n.biases.size()) + " (" + listed(n.biases) +
                 ")");
}

void check_updated_in_step(const ordered_json& receipt, const Network& n, Issues& issues) {
  const ordered_json& declared = member_or_null(member_or_null(receipt, "bias_policy"), "updated_in_step");
  if (!declared.is_boolean()) return;
  const ordered_json& before = member_or_null(receipt, "parameters_before");
  const ordered_json& after = member_or_null(receipt, "parameters_after");
  bool moved = false;
  for (const auto& b : n.biases) moved = moved || member_or_null(before, b.c_str()) != member_or_null(after, b.c_str());
  if (declared.get<bool>() == moved) return;
  issues.add("bias_policy.updated_in_step", declared, moved,
             "bias_policy.updated_in_step is " + common::js_stringify(declared) + " but parameters_after " +
                 (moved ? "moves" : "keeps") + " the biases (" + listed(n.biases) + "), so it is " +
                 (moved ? "true" : "false"));
}

}  // namespace

std::optional<Check> mazur_topology_check(const ordered_json& receipt) {
  const Network n = network_of(receipt);
  const ordered_json& topology = member_or_null(receipt, "topology");
  Issues issues;
  const ordered_json layers = layers_of(n);
  const ordered_json& declared_layers = member_or_null(topology, "layers");
  if (declared_layers != layers) {
    issues.add("topology.layers", declared_layers, layers,
               "topology.layers is " + common::js_stringify(declared_layers) + " but the receipt's network has " +
                   std::to_string(layers.size()) + " layers " + common::js_stringify(layers));
  }
  check_size(topology, "input_size", n.inputs, "input unit(s)", issues);
  check_size(topology, "hidden_size", n.hidden, "hidden unit(s)", issues);
  check_size(topology, "output_size", n.outputs, "output unit(s)", issues);
  check_biases(topology, n, layers.size(), issues);
  check_updated_in_step(receipt, n, issues);
  if (issues.text.empty()) return std::nullopt;
  std::string message;
  for (const auto& i : issues.text) message += (message.empty() ? "" : "; ") + i;
  Check c;
  c.name = "topology";
  c.status = CheckStatus::fail;
  c.message = std::move(message);
  c.evidence = std::move(issues.records);
  return c;
}

}  // namespace verify
