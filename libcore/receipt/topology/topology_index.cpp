#include "receipt/topology/topology_index.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace receipt::topology {
namespace {

constexpr std::uint32_t kUnset = UINT32_MAX;

common::Error topo_error(std::string message, std::string path = {}) {
  return common::Error::invalid_argument("topology: " + std::move(message), common::Location{{}, 0, std::move(path)});
}

// Keys view the topology's own strings: indexing copies no ids.
using UnitMap = std::unordered_map<std::string_view, std::uint32_t>;

UnitMap map_units(const std::vector<std::string>& units) {
  UnitMap m;
  m.reserve(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) m.emplace(units[i], static_cast<std::uint32_t>(i));
  return m;
}

// Bias parameter `p` (index k): record which units it serves.
common::Status index_bias(const Topology& t, const Parameter& p, std::uint32_t k, const UnitMap& layer,
                          const char* layer_name, std::vector<std::uint32_t>& bias_of_unit, ParameterSlot& slot) {
  const auto path = [k] { return "/parameters/" + std::to_string(k) + "/applies_to_units"; };
  if (!p.applies_to_units) {
    return topo_error("parameter '" + p.id + "' (" + to_string(p.role) + ") is missing applies_to_units",
                      "/parameters/" + std::to_string(k));
  }
  const auto& units = *p.applies_to_units;
  if (t.bias_sharing == BiasSharing::per_layer) {
    if (units.size() != layer.size()) {
      return topo_error("per_layer bias '" + p.id + "' must list all " + std::to_string(layer.size()) + " " +
                            layer_name + " units; it lists " + std::to_string(units.size()),
                        path());
    }
  } else if (units.size() != 1) {
    return topo_error("per_neuron bias '" + p.id + "' must list exactly one " + std::string(layer_name) +
                          " unit; it lists " + std::to_string(units.size()),
                      path());
  }
  for (std::size_t j = 0; j < units.size(); ++j) {
    const auto it = layer.find(units[j]);
    if (it == layer.end()) {
      return topo_error("bias '" + p.id + "' applies to '" + units[j] + "', which is not a " + layer_name + " unit",
                        path() + "/" + std::to_string(j));
    }
    if (bias_of_unit[it->second] == k) {
      return topo_error("bias '" + p.id + "' lists unit '" + units[j] + "' twice", path() + "/" + std::to_string(j));
    }
    if (bias_of_unit[it->second] != kUnset) {
      return topo_error(std::string(layer_name) + " unit '" + units[j] + "' is served by more than one bias", path());
    }
    bias_of_unit[it->second] = k;
  }
  slot.from = slot.to = layer.at(units[0]);
  return {};
}

}  // namespace

common::Error under_path(const common::Error& e, const std::string& prefix) {
  common::Location where = e.where();
  where.json_path = prefix + where.json_path;
  return common::Error(e.code(), e.message(), std::move(where));
}

namespace {

common::Result<TopologyIndex> build_index(const Topology& t, std::size_t max_units) {
  const std::pair<const char*, std::int64_t> sizes[] = {
      {"input_size", t.input_size}, {"hidden_size", t.hidden_size}, {"output_size", t.output_size}};
  for (const auto& [name, size] : sizes) {
    if (size < 1 || static_cast<std::uint64_t>(size) > max_units) {
      return topo_error(std::string(name) + " is " + std::to_string(size) + "; expected 1.." +
                            std::to_string(max_units),
                        std::string("/") + name);
    }
  }
  const std::pair<const char*, std::pair<std::size_t, std::int64_t>> layers[] = {
      {"input", {t.unit_order.input.size(), t.input_size}},
      {"hidden", {t.unit_order.hidden.size(), t.hidden_size}},
      {"output", {t.unit_order.output.size(), t.output_size}}};
  for (const auto& [name, counts] : layers) {
    if (counts.first != static_cast<std::size_t>(counts.second)) {
      return topo_error("unit_order." + std::string(name) + " has " + std::to_string(counts.first) +
                            " units but " + name + "_size is " + std::to_string(counts.second),
                        std::string("/unit_order/") + name);
    }
  }
  TopologyIndex ix;
  ix.n_in = t.unit_order.input.size();
  ix.n_hid = t.unit_order.hidden.size();
  ix.n_out = t.unit_order.output.size();
  const UnitMap in = map_units(t.unit_order.input);
  const UnitMap hid = map_units(t.unit_order.hidden);
  const UnitMap out = map_units(t.unit_order.output);
  {
    std::unordered_set<std::string_view> all;
    all.reserve(ix.n_in + ix.n_hid + ix.n_out);
    for (const auto* layer : {&t.unit_order.input, &t.unit_order.hidden, &t.unit_order.output}) {
      for (const auto& u : *layer) {
        if (!all.insert(u).second) return topo_error("unit id '" + u + "' is used more than once", "/unit_order");
      }
    }
  }
  if (t.parameters.size() != t.parameter_order.size()) {
    return topo_error("parameters has " + std::to_string(t.parameters.size()) + " entries but parameter_order has " +
                          std::to_string(t.parameter_order.size()),
                      "/parameters");
  }
  if (t.parameters.size() > kMaxParameters) {
    return topo_error("more than " + std::to_string(kMaxParameters) + " parameters", "/parameters");
  }
  {
    std::unordered_set<std::string_view> ids;
    ids.reserve(t.parameters.size());
    for (std::size_t k = 0; k < t.parameters.size(); ++k) {
      if (t.parameters[k].id != t.parameter_order[k]) {
        return topo_error("parameters[" + std::to_string(k) + "].id is '" + t.parameters[k].id +
                              "' but parameter_order[" + std::to_string(k) + "] is '" + t.parameter_order[k] + "'",
                          "/parameters/" + std::to_string(k) + "/id");
      }
      if (!ids.insert(t.parameters[k].id).second) {
        return topo_error("parameter id '" + t.parameters[k].id + "' appears more than once",
                          "/parameters/" + std::to_string(k) + "/id");
      }
    }
  }
  ix.w_ih.assign(ix.n_in * ix.n_hid, kUnset);
  ix.w_ho.assign(ix.n_hid * ix.n_out, kUnset);
  ix.bias_hidden.assign(ix.n_hid, kUnset);
  ix.bias_output.assign(ix.n_out, kUnset);
  ix.slots.resize(t.parameters.size());
  std::size_t hidden_biases = 0;
  std::size_t output_biases = 0;
  for (std::size_t k = 0; k < t.parameters.size(); ++k) {
    const Parameter& p = t.parameters[k];
    const auto path = [k] { return "/parameters/" + std::to_string(k); };
    ParameterSlot& slot = ix.slots[k];
    slot.role = p.role;
    const auto k32 = static_cast<std::uint32_t>(k);
    if (p.role == Role::input_to_hidden_weight || p.role == Role::hidden_to_output_weight) {
      const bool ih = p.role == Role::input_to_hidden_weight;
      if (!p.from_unit || !p.to_unit) {
        return topo_error("weight '" + p.id + "' must declare from_unit and to_unit", path());
      }
      const UnitMap& from_layer = ih ? in : hid;
      const UnitMap& to_layer = ih ? hid : out;
      const auto f = from_layer.find(*p.from_unit);
      if (f == from_layer.end()) {
        return topo_error("weight '" + p.id + "' from_unit '" + *p.from_unit + "' is not " +
                              (ih ? "an input" : "a hidden") + " unit",
                          path() + "/from_unit");
      }
      const auto to = to_layer.find(*p.to_unit);
      if (to == to_layer.end()) {
        return topo_error("weight '" + p.id + "' to_unit '" + *p.to_unit + "' is not " +
                              (ih ? "a hidden" : "an output") + " unit",
                          path() + "/to_unit");
      }
      slot.from = f->second;
      slot.to = to->second;
      std::uint32_t& cell = ih ? ix.w_ih[to->second * ix.n_in + f->second] : ix.w_ho[to->second * ix.n_hid + f->second];
      if (cell != kUnset) {
        return topo_error("weights '" + t.parameters[cell].id + "' and '" + p.id + "' carry the same edge " +
                              *p.from_unit + " -> " + *p.to_unit,
                          path());
      }
      cell = k32;
    } else if (p.role == Role::hidden_bias) {
      ++hidden_biases;
      if (auto s = index_bias(t, p, k32, hid, "hidden", ix.bias_hidden, slot); !s) return s.error();
    } else {
      ++output_biases;
      if (auto s = index_bias(t, p, k32, out, "output", ix.bias_output, slot); !s) return s.error();
    }
  }
  if (t.bias_sharing == BiasSharing::per_layer && (hidden_biases != 1 || output_biases != 1)) {
    return topo_error("per_layer bias sharing needs exactly one hidden_bias and one output_bias (found " +
                          std::to_string(hidden_biases) + " and " + std::to_string(output_biases) + ")",
                      "/parameters");
  }
  for (std::size_t h = 0; h < ix.n_hid; ++h) {
    for (std::size_t i = 0; i < ix.n_in; ++i) {
      if (ix.w_ih[h * ix.n_in + i] == kUnset) {
        return topo_error("no weight connects input '" + t.unit_order.input[i] + "' to hidden '" +
                              t.unit_order.hidden[h] + "' (layers must be fully connected)",
                          "/parameters");
      }
    }
    if (ix.bias_hidden[h] == kUnset) {
      return topo_error("hidden unit '" + t.unit_order.hidden[h] + "' has no hidden_bias", "/parameters");
    }
  }
  for (std::size_t o = 0; o < ix.n_out; ++o) {
    for (std::size_t h = 0; h < ix.n_hid; ++h) {
      if (ix.w_ho[o * ix.n_hid + h] == kUnset) {
        return topo_error("no weight connects hidden '" + t.unit_order.hidden[h] + "' to output '" +
                              t.unit_order.output[o] + "' (layers must be fully connected)",
                          "/parameters");
      }
    }
    if (ix.bias_output[o] == kUnset) {
      return topo_error("output unit '" + t.unit_order.output[o] + "' has no output_bias", "/parameters");
    }
  }
  if (t.activation_hidden == Activation::softmax) {
    return topo_error("softmax is an output activation only", "/activation_hidden");
  }
  if ((t.loss == Loss::cross_entropy_softmax) != (t.activation_output == Activation::softmax)) {
    return topo_error("loss cross_entropy_softmax and activation_output softmax go together", "/loss");
  }
  return ix;
}

}  // namespace

// A topology of at most this many parameters is remembered with its index (per thread): a stream
// of receipts repeats one topology, and comparing it costs a fraction of indexing it again.
constexpr std::size_t kMaxRememberedParameters = 1024;

common::Result<TopologyIndex> index_topology(const Topology& t, std::size_t max_units) {
  if (t.parameters.size() > kMaxRememberedParameters) return build_index(t, max_units);
  struct Remembered {
    Topology topology;
    std::size_t max_units = 0;
    std::optional<common::Result<TopologyIndex>> index;
  };
  thread_local Remembered last;
  if (last.index && last.max_units == max_units && last.topology == t) return *last.index;
  auto index = build_index(t, max_units);
  last.topology = t;
  last.max_units = max_units;
  last.index = index;
  return index;
}

}  // namespace receipt::topology
