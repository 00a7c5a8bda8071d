#include "reconcile/rules/rule_14_engine_input.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/json_release.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "reconcile/member_index.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"

namespace reconcile::rules {
namespace {

// The receipt's members the engine input carries as they are (the topology unless its layers
// need replacing; inputs and targets unless a batch's first sample replaces them).
constexpr const char* kForwardedMembers[] = {"topology",          "learning_rate",  "inputs",     "targets",
                                             "parameters_before", "numeric_policy", "bias_policy"};

// Why the step cannot be recomputed, in the words the reference's engine throws with.
common::Error recompute_refused(std::string message) { return common::Error::malformed(std::move(message)); }

// The members of the engine input that are not the receipt's own, as an object: a topology with
// the layers the engine expects, a batch's per_sample (inputs and targets of the declared samples
// only) and the first sample's inputs/targets, or optimizer_config and updates (the state_before
// of parameter_order ids). Also the reference's refusals before the engine runs.
common::Result<Tree> derived_members(const Json& r, bool batched) {
  Tree in = Tree::object();
  // The engines ignore topology.layers (the reference's never reads it): a malformed one is the
  // schema's finding, not a reason the step cannot be recomputed.
  if (const Json* topology = member(r, "topology"); topology && topology->is_object()) {
    static const Tree kLayers = Tree::array({"input", "hidden", "output"});
    const Json* layers = member(*topology, "layers");
    if (!layers || to_tree(*layers) != kLayers) {
      in["topology"] = to_tree(*topology);
      in["topology"]["layers"] = kLayers;
    }
  }
  if (batched) {
    const Json& batch = *member(r, "batch");
    const Json* order = member(batch, "sample_order");
    const Json* size = member(batch, "size");
    const double declared = size && size->is_number() ? size->get<double>()
                            : order && order->is_array() ? static_cast<double>(order->size())
                                                         : 0;
    const double effective = std::max(declared, order && order->is_array() ? static_cast<double>(order->size()) : 0.0);
    if (effective > static_cast<double>(receipt::engine::kMaxBatchSamples)) {
      return recompute_refused("batch exceeds verifier recompute cap: batch.size=" + js_number(effective) +
                               " > MAX_BATCH_SAMPLES=" + std::to_string(receipt::engine::kMaxBatchSamples) +
                               ". Split the batch into chunks and verify them as separate steps");
    }
    if (!order || !order->is_array()) return recompute_refused("batch.sample_order.map is not a function");
    const Json* per_sample = member(r, "per_sample");
    // Linear in the samples: per_sample indexed once (an object's own keys are what lookup finds
    // there), each id placed once (member_index.hpp).
    const MemberIndex<Json> entries(per_sample);
    Tree samples = Tree::object();
    MemberFiller placed(samples, order->size());
    for (const auto& sid : *order) {
      std::string key = js_string(&sid);
      const Json* s = per_sample && per_sample->is_object() ? entries.find(key) : core::lookup(per_sample, key);
      if (!core::truthy(s)) {
        return recompute_refused("per_sample missing entry for sample_id " + sid.dump() +
                                 " declared in batch.sample_order");
      }
      Tree one = Tree::object();
      if (const Json* x = core::lookup(s, "inputs")) one["inputs"] = to_tree(*x);
      if (const Json* y = core::lookup(s, "targets")) one["targets"] = to_tree(*y);
      placed.assign(std::move(key), std::move(one));
    }
    // The batched engine reads each sample's inputs; the top-level pair only has to be well formed.
    if (!samples.empty()) {
      const Tree& first = samples.begin().value();
      if (first.contains("inputs")) in["inputs"] = first["inputs"];
      if (first.contains("targets")) in["targets"] = first["targets"];
    }
    in["per_sample"] = std::move(samples);
    return in;
  }
  const auto oc = rules::read_optimizer_config(r);
  if (!oc) return in;
  const Json* updates = array_member(r, "updates");
  const Json* lr = oc->learning_rate ? member(*member(r, "optimizer_config"), "learning_rate") : member(r, "learning_rate");
  Tree config = Tree::object();
  // Which parameters the state belongs to: the engine takes state for parameter_order ids only.
  std::unordered_set<std::string> known;
  if (const Json* order = core::lookup(member(r, "topology"), "parameter_order"); order && order->is_array()) {
    for (const auto& id : *order) {
      if (id.is_string()) known.insert(id.get<std::string>());
    }
  }
  auto states = [&](bool adam) {
    Tree out = Tree::array();
    if (!updates) return out;
    for (const auto& u : *updates) {
      const Json* sb = core::lookup(core::lookup(&u, "optimizer"), "state_before");
      const auto pid = string_member(u, "parameter_id");
      if (!sb || !pid || known.count(std::string(*pid)) == 0) continue;
      Tree state = Tree::object();
      if (adam) {
        const auto m = number_member(*sb, "m");
        const auto v = number_member(*sb, "v");
        if (!sb->is_object() || !m || !v) continue;
        state["m"] = *m;
        state["v"] = *v;
      } else {
        const auto b = number_member(*sb, "buffer");
        if (!sb->is_object() || !b) continue;
        state["buffer"] = *b;
      }
      out.push_back(Tree{{"parameter_id", std::string(*pid)}, {"optimizer", Tree{{"state_before", std::move(state)}}}});
    }
    return out;
  };
  const bool carries_state = oc->is_adam_family() || oc->name == "sgd_momentum";
  if (carries_state && updates) {
    for (const auto& u : *updates) {
      if (u.is_null()) return recompute_refused("Cannot read properties of null (reading 'optimizer')");
    }
  }
  if (oc->is_adam_family()) {
    config["name"] = oc->name;
    config["learning_rate"] = to_tree(*lr);
    if (oc->beta1) config["beta1"] = *oc->beta1;
    if (oc->beta2) config["beta2"] = *oc->beta2;
    if (oc->epsilon) config["epsilon"] = *oc->epsilon;
    if (oc->t) config["t"] = *oc->t;
    // Only AdamW's update uses weight_decay (decoupled); the reference's engine ignores it on Adam.
    if (oc->weight_decay && oc->name == "adamw") config["weight_decay"] = *oc->weight_decay;
    in["optimizer_config"] = std::move(config);
    in["updates"] = states(true);
  } else if (oc->name == "sgd_momentum") {
    config["name"] = "sgd_momentum";
    config["learning_rate"] = to_tree(*lr);
    if (oc->momentum) config["momentum"] = *oc->momentum;
    if (oc->nesterov_true()) config["nesterov"] = true;
    if (const auto d = oc->dampening_number(); d && *d != 0) config["dampening"] = *d;
    if (oc->weight_decay && *oc->weight_decay != 0) config["weight_decay"] = *oc->weight_decay;
    in["optimizer_config"] = std::move(config);
    in["updates"] = states(false);
  } else if (oc->name == "sgd" && oc->weight_decay && *oc->weight_decay != 0) {
    config["name"] = "sgd";
    config["learning_rate"] = to_tree(*lr);
    config["weight_decay"] = *oc->weight_decay;
    in["optimizer_config"] = std::move(config);
  }
  return in;
}

// The engine input as one receipt-shaped document: the forwarded members, the batch, and the
// derived members over them (the path the rule took before reading in place).
Tree input_document(const ReadReceipt& read, bool batched, Tree derived) {
  Tree in = Tree::object();
  for (const char* key : kForwardedMembers) {
    if (const Tree* v = read.tree_member(key)) in[key] = *v;
  }
  if (batched) in["batch"] = *read.tree_member("batch");
  for (auto it = derived.begin(); it != derived.end(); ++it) in[it.key()] = std::move(it.value());
  return in;
}

bool forwarded(std::string_view key) {
  return std::find(std::begin(kForwardedMembers), std::end(kForwardedMembers), key) != std::end(kForwardedMembers);
}

std::string describe_refusal(const common::Error& e) {
  const std::string& at = e.where().json_path;
  return at.empty() ? e.message() : at + ": " + e.message();
}

using receipt::engine::GeneralReceipt;

common::Result<GeneralReceipt> run_step(receipt::engine::GeneralInput input, bool batched) {
  auto shared = std::make_shared<const receipt::engine::GeneralInput>(std::move(input));
  auto out = batched ? receipt::engine::compute_batched_general_step(std::move(shared))
                     : receipt::engine::compute_general_step(std::move(shared));
  if (!out) return recompute_refused(describe_refusal(out.error()));
  return std::move(*out);
}

common::Result<GeneralReceipt> through_document(const ReadReceipt& read, bool batched, Tree derived) {
  auto input = receipt::reproduce::extract_general_input(input_document(read, batched, std::move(derived)));
  if (!input) return recompute_refused(describe_refusal(input.error()));
  return run_step(std::move(*input), batched);
}

common::Result<receipt::engine::GeneralInput> read_in_place(const ReadReceipt& read, bool batched, const Tree& derived) {
  const auto from_document = [&](const char* key) {
    return member(derived, key) == nullptr && (forwarded(key) || (batched && std::string_view(key) == "batch"));
  };
  return receipt::reproduce::extract_general_input(
      [&](const char* key) -> const Tree* {
        if (const Tree* d = member(derived, key)) return d;
        if (from_document(key)) return read.tree_member(key);
        return nullptr;  // the document carries nothing else (no fixture, metadata, trace_id, step_index)
      },
      [&](const char* key) { return from_document(key) ? read.member_span(key) : std::nullopt; },
      [&](const char* key, const std::vector<std::string>& order) -> std::optional<std::vector<double>> {
        if (!from_document(key)) return std::nullopt;
        return numbers_in_order(member(read.root(), key), order);
      });
}

}  // namespace

common::Result<GeneralReceipt> recompute_engine_receipt(const ReadReceipt& receipt, bool batched, EngineInputPath path) {
  auto derived = derived_members(receipt.root(), batched);
  if (!derived) return derived.error();
  if (path == EngineInputPath::document) return through_document(receipt, batched, std::move(*derived));
  auto input = read_in_place(receipt, batched, *derived);
  if (!input) return recompute_refused(describe_refusal(input.error()));
  return run_step(std::move(*input), batched);
}

common::Result<GeneralReceipt> recompute_engine_receipt(const ReadReceipt& receipt, bool batched) {
  auto derived = derived_members(receipt.root(), batched);
  if (!derived) return derived.error();
  auto input = read_in_place(receipt, batched, *derived);
  if (input) common::release_json(*derived);  // leaves first (common/json_release.hpp)
  // Refused: the message is the document's (where several members are wrong, the first in sorted
  // order), so the document is assembled and read only then.
  if (!input) return through_document(receipt, batched, std::move(*derived));
  return run_step(std::move(*input), batched);
}

}  // namespace reconcile::rules
