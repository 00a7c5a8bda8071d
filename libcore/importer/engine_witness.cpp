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

bool is_nonzero_number(const ordered_json* v) { return v && v->is_number() && v->get<double>() != 0; }

// optimizer_config for the engine (nullopt: plain SGD without decay, which takes no config).
std::optional<ordered_json> engine_optimizer_config(const ordered_json& optimizer) {
  const std::string& name = optimizer["name"].get_ref<const std::string&>();
  if (name == "sgd" && !is_nonzero_number(member(optimizer, "weight_decay"))) return std::nullopt;
  return forwarded_optimizer_config(optimizer);
}

// updates[] carrying only each update's usable state_before (the engine reads nothing else there).
ordered_json state_updates(const ordered_json& sidecar, bool momentum) {
  ordered_json out(ordered_json::value_t::array);
  const ordered_json* updates = member(sidecar, "updates");
  if (!updates || !updates->is_array()) return out;
  auto& entries = out.get_ref<ordered_json::array_t&>();
  entries.reserve(updates->size());
  for (const auto& u : *updates) {
    const ordered_json* optimizer = member(u, "optimizer");
    const ordered_json* sb = optimizer ? member(*optimizer, "state_before") : nullptr;
    const ordered_json* pid = member(u, "parameter_id");
    if (!sb || !pid || !pid->is_string()) continue;
    ordered_json state(ordered_json::value_t::object);
    if (momentum) {
      const ordered_json* b = member(*sb, "buffer");
      if (!b || !b->is_number()) continue;
      state["buffer"] = *b;
    } else {
      const ordered_json* m = member(*sb, "m");
      const ordered_json* v = member(*sb, "v");
      if (!m || !v || !m->is_number() || !v->is_number()) continue;
      state["m"] = *m;
      state["v"] = *v;
    }
    // Member by member: an initializer list of pairs is copied element by element and checked for
    // being object-like, at about ten times the cost (17 updates a step).
    ordered_json& entry = entries.emplace_back(ordered_json::value_t::object);
    entry["parameter_id"] = *pid;
    entry["optimizer"]["state_before"] = std::move(state);
  }
  return out;
}

}  // namespace

ordered_json forwarded_optimizer_config(const ordered_json& optimizer) {
  ordered_json oc = ordered_json::object();
  oc["name"] = optimizer["name"];
  oc["learning_rate"] = optimizer["learning_rate"];
  for (const char* key : {"beta1", "beta2", "epsilon", "t", "weight_decay", "momentum"}) {
    if (const ordered_json* v = member(optimizer, key)) oc[key] = *v;
  }
  if (const ordered_json* n = member(optimizer, "nesterov"); n && n->is_boolean() && n->get<bool>()) oc["nesterov"] = true;
  if (const ordered_json* d = member(optimizer, "dampening"); is_nonzero_number(d)) oc["dampening"] = *d;
  return oc;
}

const ordered_json& default_numeric_policy() {
  static const ordered_json policy = ordered_json::parse(R"({
    "number_encoding": "decimal", "precision_significant_digits": 9, "rounding": "round_half_to_even",
    "tolerance": {"atol": 0.000001, "rtol": 0.0001}, "computation_order": "schema_defined",
    "byte_output": {"format": "jsonl", "json_key_order": "schema_defined",
                    "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}})");
  return policy;
}

ordered_json resolve_bias_policy(const ordered_json& sidecar) {
  if (const ordered_json* declared = member(sidecar, "bias_policy")) return *declared;
  const ordered_json* before = member(sidecar, "parameters_before");
  const ordered_json* after = member(sidecar, "parameters_after");
  const ordered_json* topology = member(sidecar, "topology");
  const ordered_json* params = topology ? member(*topology, "parameters") : nullptr;
  bool bias_moved = false;
  if (params && params->is_array() && before && after) {
    for (const auto& p : *params) {
      const ordered_json* role = member(p, "role");
      const ordered_json* id = member(p, "id");
      if (!role || !id || !id->is_string() || !(*role == "hidden_bias" || *role == "output_bias")) continue;
      const ordered_json* b = member(*before, id->get_ref<const std::string&>().c_str());
      const ordered_json* a = member(*after, id->get_ref<const std::string&>().c_str());
      if (b && a && b->is_number() && a->is_number() && b->get<double>() != a->get<double>()) bias_moved = true;
    }
  }
  const ordered_json* sharing = topology ? member(*topology, "bias_sharing") : nullptr;
  if (bias_moved && sharing && *sharing == "per_neuron") {
    ordered_json p = ordered_json::object();
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
  ordered_json p = ordered_json::object();
  p["mode"] = "constant";
  p["reason"] =
      "Default for v0.6 observer-mode receipts: sidecar omitted bias_policy; importer assumes Mazur convention "
      "(biases constant on step 1).";
  p["updated_in_step"] = false;
  p["reconciliation"] = "parameters_after[bias_id] === parameters_before[bias_id] for every bias parameter";
  return p;
}

namespace {

// Members the engine input takes from the sidecar as they are.
bool verbatim_member(std::string_view key) {
  return key == "topology" || key == "learning_rate" || key == "inputs" || key == "targets" ||
         key == "parameters_before" || key == "batch";
}

// The engine input's members that are not the sidecar's own: bias_policy, and per_sample (batched)
// or optimizer_config and updates (their state_before only).
common::Result<ordered_json> derived_members(const ordered_json& sidecar) {
  ordered_json in = ordered_json::object();
  in["bias_policy"] = resolve_bias_policy(sidecar);
  if (const ordered_json* batch = member(sidecar, "batch")) {
    const ordered_json* per_sample = member(sidecar, "per_sample");
    if (!per_sample) {
      return common::Error::malformed(
          "sidecar declares batch but is missing the per_sample block. Multi-sample batched receipts require "
          "per_sample to be populated for every sample in batch.sample_order.");
    }
    // Linear in the samples: per_sample indexed once, each id placed once (member_index.hpp).
    const reconcile::MemberIndex<ordered_json> entries(per_sample);
    const ordered_json& order = (*batch)["sample_order"];
    ordered_json samples = ordered_json::object();
    reconcile::MemberFiller placed(samples, order.size());
    for (const auto& sid : order) {
      const std::string& id = sid.get_ref<const std::string&>();
      const ordered_json* s = entries.find(id);
      if (!s) {
        return common::Error::malformed("sidecar.per_sample missing entry for sample_id \"" + id +
                                        "\" declared in batch.sample_order.");
      }
      ordered_json one = ordered_json::object();
      if (const ordered_json* x = member(*s, "inputs")) one["inputs"] = *x;
      if (const ordered_json* y = member(*s, "targets")) one["targets"] = *y;
      placed.assign(id, std::move(one));
    }
    in["per_sample"] = std::move(samples);
    return in;
  }
  if (const ordered_json* optimizer = member(sidecar, "optimizer")) {
    if (auto oc = engine_optimizer_config(*optimizer)) {
      const std::string name = (*oc)["name"].get<std::string>();
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
  const auto shared = std::make_shared<const receipt::engine::GeneralInput>(std::move(*input));
  auto out = shared->batch ? receipt::engine::compute_batched_general_step(shared)
                           : receipt::engine::compute_general_step(shared);
  if (!out) return common::Error::malformed(out.error().to_string());
  return std::move(*out);
}

}  // namespace importer
