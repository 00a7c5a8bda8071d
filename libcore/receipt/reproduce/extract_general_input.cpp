#include <string>
#include <unordered_map>
#include <unordered_set>

#include "receipt/reproduce/reproduce.hpp"
#include "common/json_reader.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::reproduce {

using engine::GeneralInput;
using engine::OptimizerConfig;
using engine::OptimizerName;
using engine::OptimizerState;
using nlohmann::ordered_json;
using common::JsonReader;

namespace {

// Receipts are read through nlohmann::json (unordered) so the shared readers apply.
using json = nlohmann::json;

// obj[key], or null when obj is not an object or has no such key (json::value() would throw on a
// non-object, and const operator[] on a missing key is undefined).
const json& member(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  const auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

common::Result<std::vector<double>> read_map(const JsonReader& r, const json& node, const std::string& path,
                                             const std::vector<std::string>& order) {
  if (!node.is_object()) return r.error(path, "expected an object");
  if (node.size() != order.size()) {
    std::unordered_set<std::string_view> known(order.begin(), order.end());
    for (const auto& [key, value] : node.items()) {
      if (known.count(key) == 0) return r.error(common::json_child_path(path, key), "'" + key + "' is not in the topology");
    }
  }
  std::vector<double> out;
  out.reserve(order.size());
  for (const auto& id : order) {
    const auto it = node.find(id);
    if (it == node.end()) return r.error(path, "missing '" + id + "'");
    auto v = r.finite_number(*it, common::json_child_path(path, id));
    if (!v) return v.error();
    out.push_back(*v);
  }
  return out;
}

common::Result<std::optional<double>> optional_number(const JsonReader& r, const json& obj, const char* key,
                                                      const std::string& path) {
  if (!obj.contains(key)) return std::optional<double>{};
  auto v = r.finite_number(obj[key], path + "/" + key);
  if (!v) return v.error();
  return std::optional<double>{*v};
}

common::Result<OptimizerConfig> read_optimizer_config(const JsonReader& r, const json& node) {
  const std::string path = "/optimizer_config";
  if (auto s = r.check_object(node, path,
                              {"name", "learning_rate", "beta1", "beta2", "epsilon", "weight_decay", "t", "momentum",
                               "nesterov", "dampening"},
                              {"name", "learning_rate"});
      !s) {
    return s.error();
  }
  OptimizerConfig c;
  auto name = r.one_of(node["name"], path + "/name", {"sgd", "sgd_momentum", "adam", "adamw"});
  if (!name) return name.error();
  c.name = static_cast<OptimizerName>(*name);
  auto lr = r.finite_number(node["learning_rate"], path + "/learning_rate");
  if (!lr) return lr.error();
  c.learning_rate = *lr;
  for (auto [key, field] : {std::pair{"beta1", &c.beta1}, std::pair{"beta2", &c.beta2}, std::pair{"epsilon", &c.epsilon},
                            std::pair{"weight_decay", &c.weight_decay}, std::pair{"momentum", &c.momentum},
                            std::pair{"dampening", &c.dampening}}) {
    auto v = optional_number(r, node, key, path);
    if (!v) return v.error();
    *field = *v;
  }
  if (node.contains("t")) {
    auto t = r.integer(node["t"], path + "/t", 1, (std::int64_t{1} << 53) - 1);
    if (!t) return t.error();
    c.t = *t;
  }
  if (node.contains("nesterov")) {
    auto b = r.boolean(node["nesterov"], path + "/nesterov");
    if (!b) return b.error();
    c.nesterov = *b;
  }
  return c;
}

// state_before of every update, by parameter.
common::Result<std::vector<std::optional<OptimizerState>>> read_states(const JsonReader& r, const json& updates,
                                                                       const std::vector<std::string>& order,
                                                                       OptimizerName name) {
  if (!updates.is_array()) return r.error("/updates", "expected an array");
  std::vector<std::optional<OptimizerState>> states(order.size());
  std::unordered_map<std::string_view, std::size_t> index;
  index.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) index.emplace(order[k], k);
  for (std::size_t u = 0; u < updates.size(); ++u) {
    const std::string path = "/updates/" + std::to_string(u);
    const json& up = updates[u];
    if (!up.is_object() || !up.contains("parameter_id") || !up["parameter_id"].is_string()) {
      return r.error(path + "/parameter_id", "expected a parameter id");
    }
    const auto& id = up["parameter_id"].get_ref<const std::string&>();
    const auto found = index.find(id);
    if (found == index.end()) return r.error(path + "/parameter_id", "'" + id + "' is not in parameter_order");
    const std::size_t k = found->second;
    const json* st = nullptr;
    if (up.contains("optimizer") && up["optimizer"].is_object() && up["optimizer"].contains("state_before")) {
      st = &up["optimizer"]["state_before"];
    }
    if (st == nullptr) return r.error(path + "/optimizer", "missing state_before");
    const std::string spath = path + "/optimizer/state_before";
    OptimizerState s;
    if (name == OptimizerName::sgd_momentum) {
      if (auto c = r.check_object(*st, spath, {"buffer"}, {"buffer"}); !c) return c.error();
      auto b = r.finite_number((*st)["buffer"], spath + "/buffer");
      if (!b) return b.error();
      s.buffer = *b;
    } else {
      if (auto c = r.check_object(*st, spath, {"m", "v"}, {"m", "v"}); !c) return c.error();
      auto m = r.finite_number((*st)["m"], spath + "/m");
      if (!m) return m.error();
      auto v = r.finite_number((*st)["v"], spath + "/v");
      if (!v) return v.error();
      s.m = *m;
      s.v = *v;
    }
    states[k] = s;
  }
  return states;
}

common::Result<engine::Batch> read_batch(const JsonReader& r, const json& receipt, const topology::Topology& t) {
  const json& b = receipt["batch"];
  if (auto s = r.check_object(b, "/batch", {"size", "sample_order", "reduction"}, {"size", "sample_order", "reduction"});
      !s) {
    return s.error();
  }
  engine::Batch batch;
  auto size = r.integer(b["size"], "/batch/size", 1, static_cast<std::int64_t>(engine::kMaxBatchSamples));
  if (!size) return size.error();
  auto red = r.one_of(b["reduction"], "/batch/reduction", {"mean", "sum", "none"});
  if (!red) return red.error();
  batch.reduction = static_cast<engine::Reduction>(*red);
  const json& order = b["sample_order"];
  if (!order.is_array() || order.size() != static_cast<std::size_t>(*size)) {
    return r.error("/batch/sample_order", "expected an array of batch.size sample ids");
  }
  if (!receipt.contains("per_sample") || !receipt["per_sample"].is_object()) {
    return r.error("/per_sample", "a batched receipt needs per_sample");
  }
  const json& per = receipt["per_sample"];
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto id = r.string(order[i], "/batch/sample_order/" + std::to_string(i), topology::kMaxIdLength);
    if (!id) return id.error();
    const std::string path = common::json_child_path("/per_sample", *id);
    if (!per.contains(*id)) return r.error(path, "missing the sample named in batch.sample_order");
    engine::Sample s;
    s.id = *id;
    auto x = read_map(r, member(per[*id], "inputs"), path + "/inputs", t.unit_order.input);
    if (!x) return x.error();
    auto y = read_map(r, member(per[*id], "targets"), path + "/targets", t.unit_order.output);
    if (!y) return y.error();
    s.inputs = std::move(*x);
    s.targets = std::move(*y);
    batch.samples.push_back(std::move(s));
  }
  if (per.size() != batch.samples.size()) return r.error("/per_sample", "has samples not in batch.sample_order");
  return batch;
}

}  // namespace

common::Result<GeneralInput> extract_general_input(const ordered_json& receipt_ordered) {
  const json receipt = receipt_ordered;  // unordered view for the shared readers
  const JsonReader r{std::string_view{}};
  if (!receipt.is_object()) return r.error("", "a receipt is a JSON object");
  for (const char* key : {"topology", "learning_rate", "inputs", "targets", "parameters_before", "numeric_policy",
                          "bias_policy"}) {
    if (!receipt.contains(key)) return r.error("", std::string("missing '") + key + "'");
  }
  GeneralInput in;
  auto& b = in.base;
  topology::ParseOptions opts;
  opts.allow_softmax = true;
  opts.max_layer_units = topology::kMaxEngineLayerUnits;
  auto t = topology::parse_topology(receipt["topology"], "/topology", opts);
  if (!t) return t.error();
  b.topology = std::move(*t);
  auto lr = r.finite_number(receipt["learning_rate"], "/learning_rate");
  if (!lr) return lr.error();
  b.learning_rate = *lr;
  auto x = read_map(r, receipt["inputs"], "/inputs", b.topology.unit_order.input);
  if (!x) return x.error();
  b.inputs = std::move(*x);
  auto y = read_map(r, receipt["targets"], "/targets", b.topology.unit_order.output);
  if (!y) return y.error();
  b.targets = std::move(*y);
  auto p = read_map(r, receipt["parameters_before"], "/parameters_before", b.topology.parameter_order);
  if (!p) return p.error();
  b.parameters_before = std::move(*p);
  // Policies are echoed (the emitter validates their shape and orders their keys).
  if (!receipt_ordered["numeric_policy"].is_object()) return r.error("/numeric_policy", "expected an object");
  b.numeric_policy.json = receipt_ordered["numeric_policy"];
  const ordered_json& bp = receipt_ordered["bias_policy"];
  if (!bp.is_object()) return r.error("/bias_policy", "expected an object");
  auto mode = r.one_of(member(receipt["bias_policy"], "mode"), "/bias_policy/mode", {"constant", "sgd"});
  if (!mode) return mode.error();
  b.bias_policy.mode = static_cast<topology::BiasMode>(*mode);
  b.bias_policy.json = bp;
  if (receipt.contains("fixture")) {
    auto f = r.string(receipt["fixture"], "/fixture", topology::kMaxTextLength);
    if (!f) return f.error();
    b.fixture = std::move(*f);
  }
  if (receipt.contains("metadata")) {
    const json& m = receipt["metadata"];
    if (!m.is_object()) return r.error("/metadata", "expected an object");
    topology::Metadata md;
    auto src = r.string(member(m, "source"), "/metadata/source", topology::kMaxTextLength);
    if (!src) return src.error();
    md.source = std::move(*src);
    if (m.contains("url_reference")) {
      auto u = r.string(m["url_reference"], "/metadata/url_reference", topology::kMaxTextLength);
      if (!u) return u.error();
      md.url_reference = std::move(*u);
    }
    auto gc = r.string(member(m, "gradient_convention"), "/metadata/gradient_convention", topology::kMaxTextLength);
    if (!gc) return gc.error();
    md.gradient_convention = std::move(*gc);
    b.metadata = std::move(md);
  }
  if (receipt.contains("trace_id")) {
    auto id = r.string(receipt["trace_id"], "/trace_id", topology::kMaxIdLength);
    if (!id) return id.error();
    b.trace_id = std::move(*id);
  }
  if (receipt.contains("step_index")) {
    auto s = r.integer(receipt["step_index"], "/step_index", 0, (std::int64_t{1} << 53) - 2);
    if (!s) return s.error();
    b.step_index = *s;
  }
  if (receipt.contains("optimizer_config")) {
    auto oc = read_optimizer_config(r, receipt["optimizer_config"]);
    if (!oc) return oc.error();
    in.optimizer = std::move(*oc);
    if (in.optimizer->name != OptimizerName::sgd) {
      auto st = read_states(r, member(receipt, "updates"), b.topology.parameter_order, in.optimizer->name);
      if (!st) return st.error();
      in.state_before = std::move(*st);
    }
  }
  if (receipt.contains("batch")) {
    auto batch = read_batch(r, receipt, b.topology);
    if (!batch) return batch.error();
    in.batch = std::move(*batch);
  }
  return in;
}

}  // namespace receipt::reproduce
