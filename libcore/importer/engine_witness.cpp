#include "importer/engine_witness.hpp"

#include <memory>
#include <string_view>

#include "common/json_release.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/member_index.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

using reconcile::Json;

template <class V>
bool is_nonzero_number(const V* v) { return v && v->is_number() && v->template get<double>() != 0; }

template <class V>
ordered_json forwarded_config(const V& optimizer) {
  static const V kNull;
  const auto at = [&](const char* key) -> const V& {
    const V* v = member(optimizer, key);
    return v ? *v : kNull;
  };
  ordered_json oc = ordered_json::object();
  oc["name"] = reconcile::to_tree(at("name"));
  oc["learning_rate"] = reconcile::to_tree(at("learning_rate"));
  for (const char* key : {"beta1", "beta2", "epsilon", "t", "weight_decay", "momentum"}) {
    if (const V* v = member(optimizer, key)) oc[key] = reconcile::to_tree(*v);
  }
  if (const V* n = member(optimizer, "nesterov"); n && n->is_boolean() && n->template get<bool>()) {
    oc["nesterov"] = true;
  }
  if (const V* d = member(optimizer, "dampening"); is_nonzero_number(d)) oc["dampening"] = reconcile::to_tree(*d);
  return oc;
}

// optimizer_config for the engine (nullopt: plain SGD without decay, which takes no config).
template <class V>
std::optional<ordered_json> engine_optimizer_config(const V& optimizer) {
  const bool plain_sgd = reconcile::is_string_equal(member(optimizer, "name"), "sgd");
  if (plain_sgd && !is_nonzero_number(member(optimizer, "weight_decay"))) return std::nullopt;
  return forwarded_config(optimizer);
}

// updates[] carrying only each update's usable state_before (the engine reads nothing else there).
template <class V>
ordered_json state_updates(const V& sidecar, bool momentum) {
  ordered_json out(ordered_json::value_t::array);
  const V* updates = member(sidecar, "updates");
  if (!updates || !updates->is_array()) return out;
  auto& entries = out.get_ref<ordered_json::array_t&>();
  entries.reserve(updates->size());
  for (const auto& u : *updates) {
    const V* optimizer = member(u, "optimizer");
    const V* sb = optimizer ? member(*optimizer, "state_before") : nullptr;
    const V* pid = member(u, "parameter_id");
    if (!sb || !pid || !pid->is_string()) continue;
    ordered_json state(ordered_json::value_t::object);
    if (momentum) {
      const V* b = member(*sb, "buffer");
      if (!b || !b->is_number()) continue;
      state["buffer"] = reconcile::to_tree(*b);
    } else {
      const V* m = member(*sb, "m");
      const V* v = member(*sb, "v");
      if (!m || !v || !m->is_number() || !v->is_number()) continue;
      state["m"] = reconcile::to_tree(*m);
      state["v"] = reconcile::to_tree(*v);
    }
    // Member by member: an initializer list of pairs is copied element by element and checked for
    // being object-like, at about ten times the cost (17 updates a step).
    ordered_json& entry = entries.emplace_back(ordered_json::value_t::object);
    entry["parameter_id"] = reconcile::to_tree(*pid);
    entry["optimizer"]["state_before"] = std::move(state);
  }
  return out;
}

// A key as the tree form looked it up (through c_str(): up to a NUL byte).
std::string_view up_to_nul(std::string_view key) { return key.substr(0, key.find('\0')); }

template <class V>
ordered_json bias_policy_of(const V& sidecar) {
  if (const V* declared = member(sidecar, "bias_policy")) return reconcile::to_tree(*declared);
  const V* before = member(sidecar, "parameters_before");
  const V* after = member(sidecar, "parameters_after");
  const V* topology = member(sidecar, "topology");
  const V* params = topology ? member(*topology, "parameters") : nullptr;
  bool bias_moved = false;
  if (params && params->is_array() && before && after) {
    for (const auto& p : *params) {
      const V* role = member(p, "role");
      const V* id = member(p, "id");
      if (!role || !id || !id->is_string() ||
          !(reconcile::is_string_equal(role, "hidden_bias") || reconcile::is_string_equal(role, "output_bias"))) {
        continue;
      }
      const V* b = member(*before, up_to_nul(reconcile::text_or_empty(*id)));
      const V* a = member(*after, up_to_nul(reconcile::text_or_empty(*id)));
      if (b && a && b->is_number() && a->is_number() && b->template get<double>() != a->template get<double>()) {
        bias_moved = true;
      }
    }
  }
  const V* sharing = topology ? member(*topology, "bias_sharing") : nullptr;
  ordered_json p = ordered_json::object();
  if (bias_moved && reconcile::is_string_equal(sharing, "per_neuron")) {
    p["mode"] = "sgd";
    p["reason"] =
        "G-015 observer routing: sidecar omitted bias_policy but carries UPDATING per-neuron biases (a real "
        "nn.Linear(bias=True) under any optimizer); routed to per_neuron + sgd so the engine updates biases and "
        "Rule 14 compares like-for-like. Rule 14 remains the authority on correctness.";
    p["updated_in_step"] = true;
    p["reconciliation"] =
        "for every per_neuron bias parameter b_u, parameters_after[b_u] === parameters_before[b_u] + learning_rate "
        "* signal_u (verified via the optimizer's single-factor gradient under Rules 4-7 / 21-24).";
    return p;
  }
  p["mode"] = "constant";
  p["reason"] =
      "Default for v0.6 observer-mode receipts: sidecar omitted bias_policy; importer assumes Mazur convention "
      "(biases constant on step 1).";
  p["updated_in_step"] = false;
  p["reconciliation"] = "parameters_after[bias_id] === parameters_before[bias_id] for every bias parameter";
  return p;
}

}  // namespace

ordered_json forwarded_optimizer_config(const ordered_json& optimizer) { return forwarded_config(optimizer); }
ordered_json forwarded_optimizer_config(const Json& optimizer) { return forwarded_config(optimizer); }

const ordered_json& default_numeric_policy() {
  static const ordered_json policy = ordered_json::parse(R"({
    "number_encoding": "decimal", "precision_significant_digits": 9, "rounding": "round_half_to_even",
    "tolerance": {"atol": 0.000001, "rtol": 0.0001}, "computation_order": "schema_defined",
    "byte_output": {"format": "jsonl", "json_key_order": "schema_defined",
                    "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}})");
  return policy;
}

ordered_json resolve_bias_policy(const ordered_json& sidecar) { return bias_policy_of(sidecar); }
ordered_json resolve_bias_policy(const Json& sidecar) { return bias_policy_of(sidecar); }

namespace {

// Members the engine input takes from the sidecar as they are.
bool verbatim_member(std::string_view key) {
  return key == "topology" || key == "learning_rate" || key == "inputs" || key == "targets" ||
         key == "parameters_before" || key == "batch";
}

// The engine input's members that are not the sidecar's own: bias_policy, and per_sample (batched)
// or optimizer_config and updates (their state_before only).
template <class V>
common::Result<ordered_json> derived_members(const V& sidecar) {
  ordered_json in = ordered_json::object();
  in["bias_policy"] = bias_policy_of(sidecar);
  if (const V* batch = member(sidecar, "batch")) {
    const V* per_sample = member(sidecar, "per_sample");
    if (!per_sample) {
      return common::Error::malformed(
          "sidecar declares batch but is missing the per_sample block. Multi-sample batched receipts require "
          "per_sample to be populated for every sample in batch.sample_order.");
    }
    // Linear in the samples: per_sample indexed once, each id placed once (member_index.hpp).
    const reconcile::MemberIndex<V> entries(per_sample);
    static const V kNone = V::array();  // the schema requires sample_order beside a batch
    const V* declared = member(*batch, "sample_order");
    const V& order = declared ? *declared : kNone;
    ordered_json samples = ordered_json::object();
    reconcile::MemberFiller placed(samples, order.size());
    for (const auto& sid : order) {
      const std::string id(reconcile::text_or_empty(sid));
      const V* s = entries.find(id);
      if (!s) {
        return common::Error::malformed("sidecar.per_sample missing entry for sample_id \"" + id +
                                        "\" declared in batch.sample_order.");
      }
      ordered_json one = ordered_json::object();
      if (const V* x = member(*s, "inputs")) one["inputs"] = reconcile::to_tree(*x);
      if (const V* y = member(*s, "targets")) one["targets"] = reconcile::to_tree(*y);
      placed.assign(id, std::move(one));
    }
    in["per_sample"] = std::move(samples);
    return in;
  }
  if (const V* optimizer = member(sidecar, "optimizer")) {
    if (auto oc = engine_optimizer_config(*optimizer)) {
      const std::string name = (*oc)["name"].template get<std::string>();
      in["optimizer_config"] = std::move(*oc);
      if (name != "sgd") in["updates"] = state_updates(sidecar, name == "sgd_momentum");
    }
  }
  return in;
}

const ordered_json& numeric_policy_of(const ordered_json& sidecar) {
  const ordered_json* policy = member(sidecar, "numeric_policy");
  return policy ? *policy : default_numeric_policy();
}

}  // namespace

common::Result<ordered_json> engine_input_document(const ordered_json& sidecar) {
  auto derived = derived_members(sidecar);
  if (!derived) return derived.error();
  ordered_json in = ordered_json::object();
  for (const char* key : {"topology", "learning_rate", "inputs", "targets", "parameters_before"}) {
    if (const ordered_json* v = member(sidecar, key)) in[key] = *v;
  }
  in["numeric_policy"] = numeric_policy_of(sidecar);
  if (const ordered_json* batch = member(sidecar, "batch")) in["batch"] = *batch;
  for (auto it = derived->begin(); it != derived->end(); ++it) in[it.key()] = std::move(it.value());
  return in;
}

namespace {

common::Result<receipt::engine::GeneralReceipt> run_engine(receipt::engine::GeneralInput input) {
  const auto shared = std::make_shared<const receipt::engine::GeneralInput>(std::move(input));
  auto out = shared->batch ? receipt::engine::compute_batched_general_step(shared)
                           : receipt::engine::compute_general_step(shared);
  if (!out) return common::Error::malformed(out.error().to_string());
  return std::move(*out);
}

}  // namespace

common::Result<receipt::engine::GeneralReceipt> run_witness(const ordered_json& sidecar,
                                                            std::string_view topology_bytes) {
  auto derived = derived_members(sidecar);
  if (!derived) return derived.error();
  const common::ReleasedAtExit release(*derived);  // leaves first (common/json_release.hpp)
  // The document engine_input_document would assemble, read in place.
  auto input = receipt::reproduce::extract_general_input(
      [&](const char* key) -> const ordered_json* {
        if (verbatim_member(key)) return member(sidecar, key);
        if (std::string_view(key) == "numeric_policy") return &numeric_policy_of(sidecar);
        return member(*derived, key);
      },
      [&](const char* key) -> std::optional<std::string_view> {
        if (topology_bytes.empty() || std::string_view(key) != "topology") return std::nullopt;
        return topology_bytes;
      });
  if (!input) {
    // Refused: the message is the one the assembled document gets (where several members are
    // wrong, it names the first in sorted order).
    auto doc = engine_input_document(sidecar);
    if (!doc) return doc.error();
    input = receipt::reproduce::extract_general_input(*doc);
    if (!input) return common::Error::malformed(input.error().to_string());
  }
  return run_engine(std::move(*input));
}

common::Result<receipt::engine::GeneralReceipt> run_witness(const reconcile::ReadReceipt& read,
                                                            std::string_view topology_bytes) {
  const Json& sidecar = read.root();
  auto derived = derived_members(sidecar);
  if (!derived) return derived.error();
  const common::ReleasedAtExit release(*derived);  // leaves first (common/json_release.hpp)
  // As the tree form reads it, the members the engine takes as they are read from the document:
  // the id-keyed number maps straight from it, the rest as trees (each converted once a thread
  // while a stream repeats it: ReadReceipt::tree_member).
  const auto is_map = [](std::string_view key) {
    return key == "inputs" || key == "targets" || key == "parameters_before";
  };
  auto input = receipt::reproduce::extract_general_input(
      [&](const char* key) -> const ordered_json* {
        if (verbatim_member(key)) return read.tree_member(key);
        if (std::string_view(key) == "numeric_policy") {
          const ordered_json* policy = read.tree_member(key);
          return policy ? policy : &default_numeric_policy();
        }
        return member(*derived, key);
      },
      [&](const char* key) -> std::optional<std::string_view> {
        if (topology_bytes.empty() || std::string_view(key) != "topology") return std::nullopt;
        return topology_bytes;
      },
      [&](const char* key, const std::vector<std::string>& order) -> std::optional<std::vector<double>> {
        if (!is_map(key)) return std::nullopt;
        return reconcile::numbers_in_order(member(sidecar, key), order);
      });
  if (!input) return run_witness(read.tree(), topology_bytes);  // the tree form's refusal, in its words
  return run_engine(std::move(*input));
}

}  // namespace importer
