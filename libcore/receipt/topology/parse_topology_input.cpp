#include "receipt/topology/parse_topology_input.hpp"

#include <cmath>
#include <string>
#include <unordered_set>

#include "common/json_reader.hpp"
#include "receipt/topology/parse_parameter.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::topology {
namespace {

using common::JsonReader;
using nlohmann::json;
using nlohmann::ordered_json;

// Errors the topology-input schema does not catch but the engine or the emitter does (the
// reference exits 2 for these, 1 for schema violations): reported as invalid_argument.
common::Error engine_level(const JsonReader& r, const std::string& path, std::string message) {
  common::Error e = r.error(path, std::move(message));
  return common::Error(common::ErrorCode::invalid_argument, e.message(), e.where());
}

std::size_t parameter_limit(std::size_t max_units) { return 2 * max_units * max_units + 2 * max_units; }

template <class Json>
common::Result<Activation> parse_activation(const JsonReader& r, const Json& node, const std::string& path,
                                            bool allow_softmax) {
  auto a = allow_softmax ? r.one_of(node, path, {"sigmoid", "identity", "relu", "softmax"})
                         : r.one_of(node, path, {"sigmoid", "identity", "relu"});
  if (!a) return a.error();
  return static_cast<Activation>(*a);
}

// {unit_or_parameter_id: number} read in `order`. Keys outside `order` are refused (the reference
// ignores them silently, which hides a misspelt id behind a "missing" one).
common::Result<std::vector<double>> parse_value_map(const JsonReader& r, const json& node, const std::string& path,
                                                    const std::vector<std::string>& order, const char* what) {
  if (auto s = r.object(node, path); !s) return s.error();
  if (node.size() > order.size() || node.size() < order.size()) {
    std::unordered_set<std::string_view> known(order.begin(), order.end());
    for (const auto& [key, value] : node.items()) {
      if (known.count(key) == 0) return engine_level(r, common::json_child_path(path, key), "'" + key + "' is not a " + what + " of the topology");
    }
  }
  std::vector<double> values;
  values.reserve(order.size());
  for (const auto& id : order) {
    const auto it = node.find(id);
    if (it == node.end()) return engine_level(r, path, std::string("missing a value for ") + what + " '" + id + "'");
    auto v = r.finite_number(*it, common::json_child_path(path, id));
    if (!v) return v.error();
    values.push_back(*v);
  }
  return values;
}

common::Result<NumericPolicy> parse_numeric_policy(const JsonReader& r, const json& node, const std::string& path) {
  if (auto s = r.check_object(node, path,
                              {"number_encoding", "precision_significant_digits", "rounding", "tolerance",
                               "computation_order", "byte_output"},
                              {"number_encoding", "precision_significant_digits", "rounding", "tolerance"});
      !s) {
    return s.error();
  }
  // computation_order and byte_output are optional in the schema but every receipt carries them, so a
  // config without them cannot become a receipt (the reference fails at emission, exit 2).
  for (const char* key : {"computation_order", "byte_output"}) {
    if (!node.contains(key)) {
      return engine_level(r, path, std::string("missing '") + key + "' (required to emit a receipt)");
    }
  }
  NumericPolicy np;
  ordered_json& out = np.json;
  if (auto e = r.one_of(node["number_encoding"], path + "/number_encoding", {"decimal"}); !e) return e.error();
  out["number_encoding"] = "decimal";
  auto digits = r.integer(node["precision_significant_digits"], path + "/precision_significant_digits", 1,
                          INT32_MAX);
  if (!digits) return digits.error();
  out["precision_significant_digits"] = *digits;
  if (auto e = r.one_of(node["rounding"], path + "/rounding", {"round_half_to_even"}); !e) return e.error();
  out["rounding"] = "round_half_to_even";
  const json& tol = node["tolerance"];
  const std::string tpath = path + "/tolerance";
  const auto bounded = [&](const json& v, const std::string& p, double max) -> common::Result<double> {
    auto d = r.finite_number(v, p);
    if (!d) return d.error();
    if (*d < 0 || *d > max) return r.error(p, "tolerance must be in [0, " + std::string(max == 1e-5 ? "1e-5" : "1e-3") + "]");
    return *d;
  };
  if (tol.is_object()) {
    if (auto s = r.check_object(tol, tpath, {"atol", "rtol"}, {"atol", "rtol"}); !s) return s.error();
    auto atol = bounded(tol["atol"], tpath + "/atol", 1e-5);
    if (!atol) return atol.error();
    auto rtol = bounded(tol["rtol"], tpath + "/rtol", 1e-3);
    if (!rtol) return rtol.error();
    out["tolerance"] = ordered_json{{"atol", *atol}, {"rtol", *rtol}};
  } else {
    auto scalar = bounded(tol, tpath, 1e-5);
    if (!scalar) return r.error(tpath, "expected {atol, rtol} or a number in [0, 1e-5]");
    out["tolerance"] = *scalar;
  }
  if (auto e = r.one_of(node["computation_order"], path + "/computation_order", {"schema_defined"}); !e) {
    return e.error();
  }
  out["computation_order"] = "schema_defined";
  const json& bo = node["byte_output"];
  const std::string bpath = path + "/byte_output";
  if (auto s = r.check_object(bo, bpath, {"format", "json_key_order", "trailing_zero_policy", "indent"},
                              {"format", "json_key_order", "trailing_zero_policy", "indent"});
      !s) {
    return s.error();
  }
  ordered_json bo_out;
  const std::pair<const char*, const char*> consts[] = {{"format", "jsonl"},
                                                        {"json_key_order", "schema_defined"},
                                                        {"trailing_zero_policy", "pad_to_significant_digits"},
                                                        {"indent", "none"}};
  for (const auto& [key, value] : consts) {
    if (auto e = r.one_of(bo[key], bpath + "/" + key, {value}); !e) return e.error();
    bo_out[key] = value;
  }
  out["byte_output"] = std::move(bo_out);
  return np;
}

common::Result<BiasPolicy> parse_bias_policy(const JsonReader& r, const json& node, const std::string& path) {
  if (auto s = r.check_object(node, path, {"mode", "reason", "updated_in_step", "reconciliation"},
                              {"mode", "updated_in_step"});
      !s) {
    return s.error();
  }
  BiasPolicy bp;
  auto mode = r.one_of(node["mode"], path + "/mode", {"constant", "sgd"});
  if (!mode) return mode.error();
  bp.mode = static_cast<BiasMode>(*mode);
  bp.json["mode"] = to_string(bp.mode);
  if (node.contains("reason")) {
    auto s = r.string(node["reason"], path + "/reason", kMaxTextLength);
    if (!s) return s.error();
    bp.json["reason"] = *s;
  }
  auto updated = r.boolean(node["updated_in_step"], path + "/updated_in_step");
  if (!updated) return updated.error();
  bp.json["updated_in_step"] = *updated;
  if (node.contains("reconciliation")) {
    auto s = r.string(node["reconciliation"], path + "/reconciliation", kMaxTextLength);
    if (!s) return s.error();
    bp.json["reconciliation"] = *s;
  }
  return bp;
}

common::Result<Metadata> parse_metadata(const JsonReader& r, const json& node, const std::string& path) {
  if (auto s = r.object(node, path); !s) return s.error();
  // Free-form in the schema; receipts keep only these three keys (others are dropped, as the reference does).
  Metadata m;
  for (const char* key : {"source", "gradient_convention"}) {
    if (!node.contains(key)) return engine_level(r, path, std::string("missing '") + key + "' (required to emit a receipt)");
  }
  auto source = r.string(node["source"], path + "/source", kMaxTextLength);
  if (!source) return source.error();
  m.source = std::move(*source);
  if (node.contains("url_reference")) {
    auto url = r.string(node["url_reference"], path + "/url_reference", kMaxTextLength);
    if (!url) return url.error();
    m.url_reference = std::move(*url);
  }
  auto conv = r.string(node["gradient_convention"], path + "/gradient_convention", kMaxTextLength);
  if (!conv) return conv.error();
  m.gradient_convention = std::move(*conv);
  return m;
}

// Either form of the block: nlohmann::json (members sorted, so a refusal names the first
// offending key in sorted order) or ordered_json read in place.
template <class Json>
common::Result<Topology> parse_topology_of(const Json& node, std::string_view path_view, ParseOptions options) {
  const JsonReader r{std::string_view{}};
  const std::string path(path_view);
  if (auto s = r.check_object(node, path,
                              {"layers", "input_size", "hidden_size", "output_size", "unit_order", "parameter_order",
                               "parameters", "activation_hidden", "activation_output", "loss", "bias_sharing"},
                              {"layers", "input_size", "hidden_size", "output_size", "unit_order", "parameter_order",
                               "parameters", "activation_hidden", "activation_output", "loss", "bias_sharing"});
      !s) {
    return s.error();
  }
  const auto max_units = static_cast<std::int64_t>(options.max_layer_units);
  Topology t;
  // `layers` is checked for shape only: receipts always say ["input","hidden","output"].
  const Json& layers = node["layers"];
  if (!layers.is_array() || layers.size() > 16) return r.error(path + "/layers", "expected an array of strings");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (auto s = r.string(layers[i], common::json_child_path(path + "/layers", i), kMaxIdLength); !s) return s.error();
  }
  for (auto [key, field] : {std::pair{"input_size", &t.input_size}, std::pair{"hidden_size", &t.hidden_size},
                            std::pair{"output_size", &t.output_size}}) {
    auto v = r.integer(node[key], path + "/" + key, 1, max_units);
    if (!v) return v.error();
    *field = *v;
  }
  const Json& uo = node["unit_order"];
  const std::string uopath = path + "/unit_order";
  if (auto s = r.check_object(uo, uopath, {"input", "hidden", "output"}, {"input", "hidden", "output"}); !s) {
    return s.error();
  }
  for (auto [key, field] : {std::pair{"input", &t.unit_order.input}, std::pair{"hidden", &t.unit_order.hidden},
                            std::pair{"output", &t.unit_order.output}}) {
    auto ids = r.identifier_array(uo[key], uopath + "/" + key, 1, options.max_layer_units, kMaxIdLength);
    if (!ids) return ids.error();
    *field = std::move(*ids);
  }
  const std::size_t max_params = parameter_limit(options.max_layer_units);
  auto order = r.identifier_array(node["parameter_order"], path + "/parameter_order", 1, max_params, kMaxIdLength);
  if (!order) return order.error();
  t.parameter_order = std::move(*order);
  {
    std::unordered_set<std::string_view> seen;
    for (std::size_t i = 0; i < t.parameter_order.size(); ++i) {
      if (!seen.insert(t.parameter_order[i]).second) {
        return r.error(common::json_child_path(path + "/parameter_order", i), "'" + t.parameter_order[i] + "' is listed twice");
      }
    }
  }
  const Json& params = node["parameters"];
  const std::string ppath = path + "/parameters";
  if (auto s = r.array(params, ppath); !s) return s.error();
  if (params.empty() || params.size() > max_params) {
    return r.error(ppath, "expected 1.." + std::to_string(max_params) + " parameters, got " +
                              std::to_string(params.size()));
  }
  t.parameters.reserve(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (auto p = accepted_parameter(params[i], options.max_layer_units)) {
      t.parameters.push_back(std::move(*p));
      continue;
    }
    auto p = parse_parameter(r, params[i], common::json_child_path(ppath, i), options.max_layer_units);
    if (!p) return p.error();
    t.parameters.push_back(std::move(*p));
  }
  auto ah = parse_activation(r, node["activation_hidden"], path + "/activation_hidden", false);
  if (!ah) return ah.error();
  t.activation_hidden = *ah;
  auto ao = parse_activation(r, node["activation_output"], path + "/activation_output", options.allow_softmax);
  if (!ao) return ao.error();
  t.activation_output = *ao;
  auto loss = options.allow_softmax
                  ? r.one_of(node["loss"], path + "/loss", {"half_squared_error", "cross_entropy_softmax"})
                  : r.one_of(node["loss"], path + "/loss", {"half_squared_error"});
  if (!loss) return loss.error();
  t.loss = static_cast<Loss>(*loss);
  auto sharing = r.one_of(node["bias_sharing"], path + "/bias_sharing", {"per_layer", "per_neuron"});
  if (!sharing) return sharing.error();
  t.bias_sharing = static_cast<BiasSharing>(*sharing);
  if (auto ix = index_topology(t, options.max_layer_units); !ix) {
    return under_path(ix.error(), path);
  }
  return t;
}

}  // namespace

common::Result<Topology> parse_topology(const json& node, std::string_view path, ParseOptions options) {
  return parse_topology_of(node, path, options);
}

common::Result<Topology> parse_topology(const ordered_json& node, std::string_view path, ParseOptions options) {
  auto in_place = parse_topology_of(node, path, options);
  if (in_place) return in_place;
  // The refusal's words are the sorted copy's, as for every other reader of a topology.
  return parse_topology_of(json(node), path, options);
}

common::Result<TopologyInput> parse_topology_input(const json& doc, std::string_view file, ParseOptions options) {
  const JsonReader r{file};
  const auto fail = [&](const common::Error& e) -> common::Error {
    common::Location where = e.where();
    where.file = std::string(file);
    return common::Error(e.code(), e.message(), std::move(where));
  };
  if (auto s = r.check_object(doc, "",
                              {"$schema", "fixture", "metadata", "numeric_policy", "bias_policy", "topology",
                               "learning_rate", "trace_id", "step_index", "inputs", "targets", "parameters_before"},
                              {"topology", "learning_rate", "inputs", "targets", "parameters_before", "numeric_policy",
                               "bias_policy"});
      !s) {
    return s.error();
  }
  TopologyInput in;
  if (doc.contains("$schema")) {
    if (auto e = r.one_of(doc["$schema"], "/$schema", {"https://json-schema.org/draft/2020-12/schema"}); !e) {
      return e.error();
    }
  }
  auto topo = parse_topology(doc["topology"], "/topology", options);
  if (!topo) return fail(topo.error());
  in.topology = std::move(*topo);
  auto lr = r.finite_number(doc["learning_rate"], "/learning_rate");
  if (!lr) return lr.error();
  if (!(*lr > 0)) return r.error("/learning_rate", "learning_rate must be > 0");
  in.learning_rate = *lr;
  auto inputs = parse_value_map(r, doc["inputs"], "/inputs", in.topology.unit_order.input, "input unit");
  if (!inputs) return inputs.error();
  in.inputs = std::move(*inputs);
  auto targets = parse_value_map(r, doc["targets"], "/targets", in.topology.unit_order.output, "output unit");
  if (!targets) return targets.error();
  in.targets = std::move(*targets);
  auto before =
      parse_value_map(r, doc["parameters_before"], "/parameters_before", in.topology.parameter_order, "parameter");
  if (!before) return before.error();
  in.parameters_before = std::move(*before);
  auto np = parse_numeric_policy(r, doc["numeric_policy"], "/numeric_policy");
  if (!np) return np.error();
  in.numeric_policy = std::move(*np);
  auto bp = parse_bias_policy(r, doc["bias_policy"], "/bias_policy");
  if (!bp) return bp.error();
  in.bias_policy = std::move(*bp);
  if (in.bias_policy.mode == BiasMode::sgd && in.topology.bias_sharing == BiasSharing::per_layer) {
    return engine_level(r, "/bias_policy/mode", "bias_policy.mode 'sgd' needs bias_sharing 'per_neuron'");
  }
  if (doc.contains("fixture")) {
    auto f = r.string(doc["fixture"], "/fixture", kMaxTextLength);
    if (!f) return f.error();
    in.fixture = std::move(*f);
  }
  if (doc.contains("metadata")) {
    auto m = parse_metadata(r, doc["metadata"], "/metadata");
    if (!m) return m.error();
    in.metadata = std::move(*m);
  }
  const bool has_trace = doc.contains("trace_id");
  const bool has_step = doc.contains("step_index");
  if (has_trace != has_step) {
    return r.error(has_trace ? "/trace_id" : "/step_index", "trace_id and step_index go together");
  }
  if (has_trace) {
    auto id = r.string(doc["trace_id"], "/trace_id", 32);
    if (!id) return id.error();
    bool hex = id->size() == 32;
    for (const char c : *id) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (!hex) return r.error("/trace_id", "trace_id must be 32 lowercase hex digits");
    in.trace_id = std::move(*id);
    // step is step_index + 1 and must stay an exact JavaScript integer.
    auto step = r.integer(doc["step_index"], "/step_index", 0, (std::int64_t{1} << 53) - 2);
    if (!step) return step.error();
    in.step_index = *step;
  }
  return in;
}

}  // namespace receipt::topology
