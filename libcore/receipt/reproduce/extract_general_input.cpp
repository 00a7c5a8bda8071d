#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "receipt/reproduce/reproduce.hpp"
#include "common/json_reader.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "receipt/topology/topology_memo.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::reproduce {

using engine::GeneralInput;
using engine::OptimizerConfig;
using engine::OptimizerName;
using engine::OptimizerState;
using nlohmann::ordered_json;
using common::JsonReader;

namespace {

// Everything below reads either nlohmann::json (extract_general_input of a document: its members
// iterate sorted, so an error names the first offending key in sorted order, as it always has) or
// nlohmann::ordered_json read in place (extract_general_input of parts: nothing is copied).
using json = nlohmann::json;

// obj[key], or null when obj is not an object or has no such key (json::value() would throw on a
// non-object, and const operator[] on a missing key is undefined).
template <class Json>
const Json& member(const Json& obj, const char* key) {
  static const Json kNull;
  if (!obj.is_object()) return kNull;
  const auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

// Members of one object looked up in a given order. An ordered_json lookup is linear and maps
// reach 10^4 entries: follow the object's own order while the lookups agree with it (a receipt's
// case), and build a hash index once when they do not.
template <class Json>
class OrderedLookup {
 public:
  explicit OrderedLookup(const Json& map) : map_(map), cursor_(map.begin()) {}
  // nullptr when missing.
  const Json* find(const std::string& key) {
    if constexpr (std::is_same_v<Json, json>) {
      const auto it = map_.find(key);
      return it == map_.end() ? nullptr : &*it;
    } else {
      if (cursor_ != map_.end() && cursor_.key() == key) return &*cursor_++;
      if (index_.empty()) {
        index_.reserve(map_.size());
        for (auto it = map_.begin(); it != map_.end(); ++it) index_.emplace(it.key(), &*it);
      }
      const auto hit = index_.find(key);
      return hit == index_.end() ? nullptr : hit->second;
    }
  }

 private:
  const Json& map_;
  typename Json::const_iterator cursor_;
  std::unordered_map<std::string_view, const Json*> index_;
};

template <class Json>
common::Result<std::vector<double>> read_map(const JsonReader& r, const Json& node, const std::string& path,
                                             const std::vector<std::string>& order) {
  if (!node.is_object()) return r.error(path, "expected an object");
  if (node.size() != order.size()) {
    std::unordered_set<std::string_view> known(order.begin(), order.end());
    for (const auto& [key, value] : node.items()) {
      if (known.count(key) == 0) return r.error(common::json_child_path(path, key), "'" + key + "' is not in the topology");
    }
  }
  OrderedLookup<Json> lookup(node);
  std::vector<double> out;
  out.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Json* v = lookup.find(order[i]);
    if (v == nullptr) return r.error(path, "missing '" + order[i] + "'");
    // The value's path is spelled only for an error.
    if (v->is_number() && std::isfinite(v->template get<double>())) {
      out.push_back(v->template get<double>());
      continue;
    }
    auto checked = r.finite_number(*v, common::json_child_path(path, order[i]));
    if (!checked) return checked.error();
    out.push_back(*checked);
  }
  return out;
}

template <class Json>
common::Result<std::optional<double>> optional_number(const JsonReader& r, const Json& obj, const char* key,
                                                      const std::string& path) {
  if (!obj.contains(key)) return std::optional<double>{};
  auto v = r.finite_number(obj[key], path + "/" + key);
  if (!v) return v.error();
  return std::optional<double>{*v};
}

template <class Json>
common::Result<OptimizerConfig> read_optimizer_config(const JsonReader& r, const Json& node) {
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

// A finite number at `obj[key]`, or nullopt.
template <class Json>
std::optional<double> finite_at(const Json& obj, const char* key) {
  if (!obj.contains(key)) return std::nullopt;
  const Json& v = obj[key];
  if (!v.is_number()) return std::nullopt;
  const double d = v.template get<double>();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

// One update's parameter index and state_before when both read as read_states would read them;
// nullopt where read_states' own reading must decide, and say where it fails. Read without
// spelling a path: an update is read in every step, a path is wanted only for an error.
template <class Json>
std::optional<std::pair<std::size_t, OptimizerState>> plain_state(
    const Json& up, const std::unordered_map<std::string_view, std::size_t>& index, OptimizerName name) {
  if (!up.is_object() || !up.contains("parameter_id") || !up.contains("optimizer")) return std::nullopt;
  const Json& id = up["parameter_id"];
  const Json& optimizer = up["optimizer"];
  if (!id.is_string() || !optimizer.is_object() || !optimizer.contains("state_before")) return std::nullopt;
  const auto found = index.find(id.template get_ref<const std::string&>());
  const Json& st = optimizer["state_before"];
  if (found == index.end() || !st.is_object()) return std::nullopt;
  OptimizerState s;
  if (name == OptimizerName::sgd_momentum) {
    const auto b = finite_at(st, "buffer");
    if (st.size() != 1 || !b) return std::nullopt;
    s.buffer = *b;
  } else {
    const auto m = finite_at(st, "m");
    const auto v = finite_at(st, "v");
    if (st.size() != 2 || !m || !v) return std::nullopt;
    s.m = *m;
    s.v = *v;
  }
  return std::pair{found->second, s};
}

// state_before of every update, by parameter.
template <class Json>
common::Result<std::vector<std::optional<OptimizerState>>> read_states(const JsonReader& r, const Json& updates,
                                                                       const std::vector<std::string>& order,
                                                                       OptimizerName name) {
  if (!updates.is_array()) return r.error("/updates", "expected an array");
  std::vector<std::optional<OptimizerState>> states(order.size());
  std::unordered_map<std::string_view, std::size_t> index;
  index.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) index.emplace(order[k], k);
  for (std::size_t u = 0; u < updates.size(); ++u) {
    const Json& up = updates[u];
    if (const auto plain = plain_state(up, index, name)) {
      states[plain->first] = plain->second;
      continue;
    }
    const std::string path = "/updates/" + std::to_string(u);
    if (!up.is_object() || !up.contains("parameter_id") || !up["parameter_id"].is_string()) {
      return r.error(path + "/parameter_id", "expected a parameter id");
    }
    const auto& id = up["parameter_id"].template get_ref<const std::string&>();
    const auto found = index.find(id);
    if (found == index.end()) return r.error(path + "/parameter_id", "'" + id + "' is not in parameter_order");
    const std::size_t k = found->second;
    const Json* st = nullptr;
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

template <class Json>
common::Result<engine::Batch> read_batch(const JsonReader& r, const Json& b, const Json* per_sample,
                                         const topology::Topology& t) {
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
  const Json& order = b["sample_order"];
  if (!order.is_array() || order.size() != static_cast<std::size_t>(*size)) {
    return r.error("/batch/sample_order", "expected an array of batch.size sample ids");
  }
  if (per_sample == nullptr || !per_sample->is_object()) {
    return r.error("/per_sample", "a batched receipt needs per_sample");
  }
  const Json& per = *per_sample;
  OrderedLookup<Json> lookup(per);
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto id = r.string(order[i], "/batch/sample_order/" + std::to_string(i), topology::kMaxIdLength);
    if (!id) return id.error();
    const std::string path = common::json_child_path("/per_sample", *id);
    const Json* entry = lookup.find(*id);
    if (entry == nullptr) return r.error(path, "missing the sample named in batch.sample_order");
    engine::Sample s;
    s.id = *id;
    auto x = read_map(r, member(*entry, "inputs"), path + "/inputs", t.unit_order.input);
    if (!x) return x.error();
    auto y = read_map(r, member(*entry, "targets"), path + "/targets", t.unit_order.output);
    if (!y) return y.error();
    s.inputs = std::move(*x);
    s.targets = std::move(*y);
    batch.samples.push_back(std::move(s));
  }
  if (per.size() != batch.samples.size()) return r.error("/per_sample", "has samples not in batch.sample_order");
  return batch;
}

// The input from a receipt's members: part(key) is the receipt's member `key` (nullptr when it has
// none), ordered(key) the same member as ordered_json (the policies are echoed in their order).
template <class Json, class Part, class OrderedPart>
common::Result<GeneralInput> extract(const Part& part, const OrderedPart& ordered, const ReceiptSpans* spans = nullptr,
                                     const ReceiptMaps* maps = nullptr) {
  const JsonReader r{std::string_view{}};
  // With `maps`, a map member is looked for when it is read: its absence is refused there (in
  // place, which error comes first does not matter: see reproduce.hpp).
  for (const char* key : {"topology", "learning_rate", "inputs", "targets", "parameters_before", "numeric_policy",
                          "bias_policy"}) {
    const bool map_key = std::string_view(key) == "inputs" || std::string_view(key) == "targets" ||
                         std::string_view(key) == "parameters_before";
    if ((maps == nullptr || !map_key) && part(key) == nullptr) return r.error("", std::string("missing '") + key + "'");
  }
  const auto number_map = [&](const char* key, const std::vector<std::string>& order) -> common::Result<std::vector<double>> {
    if (maps != nullptr) {
      if (auto values = (*maps)(key, order)) return std::move(*values);
    }
    const Json* node = part(key);
    if (node == nullptr) return r.error("", std::string("missing '") + key + "'");
    return read_map(r, *node, std::string("/") + key, order);
  };
  GeneralInput in;
  auto& b = in.base;
  topology::ParseOptions opts;
  opts.allow_softmax = true;
  opts.max_layer_units = topology::kMaxEngineLayerUnits;
  auto t = [&] {
    // In place the block is read as it is, and the last small one parsed on this thread is
    // remembered (a stream's records share one topology).
    if constexpr (std::is_same_v<Json, json>) return topology::parse_topology(*part("topology"), "/topology", opts);
    else return topology::parse_topology_remembered(*part("topology"), "/topology", opts,
                                                    spans ? (*spans)("topology") : std::nullopt);
  }();
  if (!t) return t.error();
  b.topology = std::move(*t);
  auto lr = r.finite_number(*part("learning_rate"), "/learning_rate");
  if (!lr) return lr.error();
  b.learning_rate = *lr;
  auto x = number_map("inputs", b.topology.unit_order.input);
  if (!x) return x.error();
  b.inputs = std::move(*x);
  auto y = number_map("targets", b.topology.unit_order.output);
  if (!y) return y.error();
  b.targets = std::move(*y);
  auto p = number_map("parameters_before", b.topology.parameter_order);
  if (!p) return p.error();
  b.parameters_before = std::move(*p);
  // Policies are echoed (the emitter validates their shape and orders their keys).
  const ordered_json& np = *ordered("numeric_policy");
  if (!np.is_object()) return r.error("/numeric_policy", "expected an object");
  b.numeric_policy.json = np;
  const ordered_json& bp = *ordered("bias_policy");
  if (!bp.is_object()) return r.error("/bias_policy", "expected an object");
  auto mode = r.one_of(member(*part("bias_policy"), "mode"), "/bias_policy/mode", {"constant", "sgd"});
  if (!mode) return mode.error();
  b.bias_policy.mode = static_cast<topology::BiasMode>(*mode);
  b.bias_policy.json = bp;
  if (const Json* fixture = part("fixture")) {
    auto f = r.string(*fixture, "/fixture", topology::kMaxTextLength);
    if (!f) return f.error();
    b.fixture = std::move(*f);
  }
  if (const Json* metadata = part("metadata")) {
    const Json& m = *metadata;
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
  if (const Json* trace_id = part("trace_id")) {
    auto id = r.string(*trace_id, "/trace_id", topology::kMaxIdLength);
    if (!id) return id.error();
    b.trace_id = std::move(*id);
  }
  if (const Json* step_index = part("step_index")) {
    auto s = r.integer(*step_index, "/step_index", 0, (std::int64_t{1} << 53) - 2);
    if (!s) return s.error();
    b.step_index = *s;
  }
  if (const Json* config = part("optimizer_config")) {
    auto oc = read_optimizer_config(r, *config);
    if (!oc) return oc.error();
    in.optimizer = std::move(*oc);
    if (in.optimizer->name != OptimizerName::sgd) {
      static const Json kNull;
      const Json* updates = part("updates");
      auto st = read_states(r, updates ? *updates : kNull, b.topology.parameter_order, in.optimizer->name);
      if (!st) return st.error();
      in.state_before = std::move(*st);
    }
  }
  if (const Json* batch_block = part("batch")) {
    auto batch = read_batch(r, *batch_block, part("per_sample"), b.topology);
    if (!batch) return batch.error();
    in.batch = std::move(*batch);
  }
  return in;
}

}  // namespace

common::Result<GeneralInput> extract_general_input(const ordered_json& receipt_ordered) {
  // In place first: that reading accepts exactly what the sorted copy below accepts, and copying
  // a receipt of megabytes into an unordered tree (and freeing it) was most of verify general's
  // engine-reproduce. Only a refusal takes the copy, whose error names the first offending key
  // in sorted order.
  if (receipt_ordered.is_object()) {
    const auto member = [&](const char* key) -> const ordered_json* {
      const auto it = receipt_ordered.find(key);
      return it == receipt_ordered.end() ? nullptr : &*it;
    };
    if (auto in = extract<ordered_json>(member, member)) return in;
  }
  const json receipt = receipt_ordered;  // unordered: errors name the first offending key in sorted order
  if (!receipt.is_object()) return JsonReader{std::string_view{}}.error("", "a receipt is a JSON object");
  return extract<json>(
      [&](const char* key) -> const json* {
        const auto it = receipt.find(key);
        return it == receipt.end() ? nullptr : &*it;
      },
      [&](const char* key) { return &*receipt_ordered.find(key); });
}

common::Result<GeneralInput> extract_general_input(const ReceiptParts& part) {
  return extract<ordered_json>(part, part);
}

common::Result<GeneralInput> extract_general_input(const ReceiptParts& part, const ReceiptSpans& spans) {
  return extract<ordered_json>(part, part, &spans);
}

common::Result<GeneralInput> extract_general_input(const ReceiptParts& part, const ReceiptSpans& spans,
                                                   const ReceiptMaps& maps) {
  return extract<ordered_json>(part, part, &spans, &maps);
}

}  // namespace receipt::reproduce
