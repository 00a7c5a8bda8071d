#include "importer/observer_receipt.hpp"

#include <optional>
#include <string_view>

#include "importer/engine_witness.hpp"
#include "receipt/engine/receipt_blocks.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

struct OptimizerTraits {
  const ordered_json* block = nullptr;
  bool adam_family = false, momentum = false, nesterov_or_dampening = false, coupled_l2 = false;
};

OptimizerTraits traits_of(const ordered_json& sidecar) {
  OptimizerTraits t;
  t.block = member(sidecar, "optimizer");
  const ordered_json* name = t.block ? member(*t.block, "name") : nullptr;
  if (!name || !name->is_string()) return t;
  t.adam_family = *name == "adam" || *name == "adamw";
  t.momentum = *name == "sgd_momentum";
  const ordered_json* nesterov = member(*t.block, "nesterov");
  const ordered_json* dampening = member(*t.block, "dampening");
  t.nesterov_or_dampening =
      t.momentum && ((nesterov && nesterov->is_boolean() && nesterov->get<bool>()) ||
                     (dampening && !(dampening->is_number() && dampening->get<double>() == 0)));
  const ordered_json* wd = member(*t.block, "weight_decay");
  t.coupled_l2 = (*name == "sgd" || t.momentum) && wd && wd->is_number() && wd->get<double>() != 0;
  return t;
}

// member() for a document whose values are about to be moved out.
ordered_json* owned_member(ordered_json& doc, const char* key) {
  if (!doc.is_object()) return nullptr;
  const auto it = doc.find(key);
  return it == doc.end() ? nullptr : &*it;
}

// "<name>@<version>" split at the LAST '@' (no '@', or only a leading one: version "unversioned").
std::pair<std::string, std::string> split_identity(std::string_view identity) {
  const auto at = identity.rfind('@');
  if (at == std::string_view::npos || at == 0) return {std::string(identity), "unversioned"};
  return {std::string(identity.substr(0, at)), std::string(identity.substr(at + 1))};
}

}  // namespace

std::string observer_schema_version(const ordered_json& sidecar) {
  const OptimizerTraits t = traits_of(sidecar);
  if (t.coupled_l2) return "0.8.0";
  if (t.nesterov_or_dampening) return "0.7.0";
  if (t.momentum) return "0.6.0";
  if (t.adam_family) return "0.5.0";
  return "0.4.0";
}

namespace {

// The members observer_receipt can write (25 today), with room to spare.
constexpr std::size_t kReceiptMembers = 32;

// engine_block(key) gives the engine's block `key` (topology, post_update_forward,
// post_update_loss) or nullopt; it is asked only for the blocks the receipt takes.
template <class EngineBlock>
ordered_json observer_receipt(ordered_json&& consumed_sidecar, EngineBlock&& engine_block, const ObserverFields& f) {
  // Read through a const view; the blocks the receipt carries verbatim are moved out instead.
  const ordered_json& sidecar = consumed_sidecar;
  const ordered_json& framework = sidecar["source_framework"];
  const std::string name = framework["name"].get<std::string>();
  const std::string version = framework["version"].get<std::string>();
  const auto [extractor_name, extractor_version] = split_identity(extractor_identity(f.framework, f.multi));

  ordered_json r = ordered_json::object();
  // Room for every member first: ordered_json's members are pairs with a const key, which a
  // growing vector copies rather than moves, and with them every block already moved in.
  r.get_ref<ordered_json::object_t&>().reserve(kReceiptMembers);
  r["schema_version"] = observer_schema_version(sidecar);
  r["fixture"] = f.fixture;
  r["step"] = f.step_index ? *f.step_index + 1 : 1;
  if (f.trace_id) r["trace_id"] = *f.trace_id;
  if (f.step_index) r["step_index"] = *f.step_index;
  // Member by member, not from initializer lists of pairs: those are copied element by element
  // and checked for being object-like, several times the cost, for every step of a stream.
  ordered_json& status = r["fixture_status"];
  status["authoring_state"] = "external_imported";
  status["verification_state"] =
      f.differential_passed ? "engine_recompute_matched_within_tolerance" : "engine_recompute_disagreed";
  status["canonical"] = true;
  ordered_json source = ordered_json::object();
  source["name"] = name;
  source["version"] = version;
  if (const ordered_json* uri = member(framework, "information_uri")) source["information_uri"] = *uri;
  ordered_json& extractor = source["extractor"];
  extractor["name"] = extractor_name;
  extractor["version"] = extractor_version;
  r["source_framework"] = std::move(source);
  ordered_json& attestor = r["attestor"];
  ordered_json& computed_by = attestor["computed_by"];
  computed_by["kind"] = "framework";
  computed_by["identity"] = name + "@" + version;
  ordered_json& verified_by = attestor["verified_by"];
  verified_by["kind"] = "engine";
  verified_by["identity"] = "backprop-trace-engine@0.6.0";
  ordered_json& tolerance = attestor["differential_tolerance"];
  tolerance["atol"] = f.differential_tolerance.atol;
  tolerance["rtol"] = f.differential_tolerance.rtol;
  ordered_json& provenance = attestor["import_provenance"];
  provenance["source_format"] = sidecar["format"];
  provenance["source_hash"] = f.source_hash;
  provenance["import_timestamp"] = f.import_timestamp;
  ordered_json& metadata = r["metadata"];
  metadata["source"] = "bp-import-" + std::string(framework_name(f.framework)) + (f.multi ? " multi" : "") +
                       " (sidecar from " + name + "@" + version + ")";
  metadata["gradient_convention"] = "descent_direction";
  const ordered_json* policy = member(sidecar, "numeric_policy");
  r["numeric_policy"] = policy ? *policy : default_numeric_policy();
  r["bias_policy"] = resolve_bias_policy(sidecar);
  if (std::optional<ordered_json> topology = engine_block("topology")) r["topology"] = std::move(*topology);
  r["learning_rate"] = sidecar["learning_rate"];
  const OptimizerTraits t = traits_of(sidecar);
  if (t.block && (t.adam_family || t.momentum || t.coupled_l2)) r["optimizer_config"] = forwarded_optimizer_config(*t.block);
  for (const char* key : {"batch", "inputs", "targets", "parameters_before", "per_sample", "forward", "loss",
                          "backward", "updates", "parameters_after"}) {
    if (ordered_json* v = owned_member(consumed_sidecar, key)) r[key] = std::move(*v);
  }
  for (const char* key : {"post_update_forward", "post_update_loss"}) {
    ordered_json* v = owned_member(consumed_sidecar, key);
    if (v && !v->is_null()) {
      r[key] = std::move(*v);
    } else if (std::optional<ordered_json> e = engine_block(key)) {
      r[key] = std::move(*e);
    }
  }
  return r;
}

}  // namespace

ordered_json build_observer_receipt(ordered_json&& consumed_sidecar, ordered_json&& consumed_engine,
                                    const ObserverFields& f) {
  return observer_receipt(
      std::move(consumed_sidecar),
      [&](const char* key) -> std::optional<ordered_json> {
        ordered_json* v = owned_member(consumed_engine, key);
        return v ? std::optional<ordered_json>(std::move(*v)) : std::nullopt;
      },
      f);
}

ordered_json build_observer_receipt(ordered_json&& consumed_sidecar, const receipt::engine::GeneralReceipt& engine,
                                    const ObserverFields& f) {
  return observer_receipt(
      std::move(consumed_sidecar),
      [&](std::string_view key) -> std::optional<ordered_json> {
        if (key == "topology") return receipt::engine::topology_json(engine.topology());
        if (key == "post_update_forward") return receipt::engine::forward_json(engine.topology(), engine.post_forward, "filled");
        if (key == "post_update_loss") return receipt::engine::post_update_loss_json(engine);
        return std::nullopt;
      },
      f);
}

}  // namespace importer
