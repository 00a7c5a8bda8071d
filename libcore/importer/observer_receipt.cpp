#include "importer/observer_receipt.hpp"

#include <optional>
#include <string_view>
#include <utility>

#include "importer/engine_witness.hpp"
#include "receipt/engine/receipt_blocks.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

using reconcile::Json;

template <class V>
struct OptimizerTraits {
  const V* block = nullptr;
  bool adam_family = false, momentum = false, nesterov_or_dampening = false, coupled_l2 = false;
};

template <class V>
OptimizerTraits<V> traits_of(const V& sidecar) {
  OptimizerTraits<V> t;
  t.block = member(sidecar, "optimizer");
  const V* name = t.block ? member(*t.block, "name") : nullptr;
  if (!name || !name->is_string()) return t;
  t.adam_family = reconcile::is_string_equal(name, "adam") || reconcile::is_string_equal(name, "adamw");
  t.momentum = reconcile::is_string_equal(name, "sgd_momentum");
  const V* nesterov = member(*t.block, "nesterov");
  const V* dampening = member(*t.block, "dampening");
  t.nesterov_or_dampening =
      t.momentum && ((nesterov && nesterov->is_boolean() && nesterov->template get<bool>()) ||
                     (dampening && !(dampening->is_number() && dampening->template get<double>() == 0)));
  const V* wd = member(*t.block, "weight_decay");
  t.coupled_l2 = (reconcile::is_string_equal(name, "sgd") || t.momentum) && wd && wd->is_number() &&
                 wd->template get<double>() != 0;
  return t;
}

template <class V>
std::string schema_version_of(const V& sidecar) {
  const OptimizerTraits<V> t = traits_of(sidecar);
  if (t.coupled_l2) return "0.8.0";
  if (t.nesterov_or_dampening) return "0.7.0";
  if (t.momentum) return "0.6.0";
  if (t.adam_family) return "0.5.0";
  return "0.4.0";
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


// The members observer_receipt can write (25 today), with room to spare.
constexpr std::size_t kReceiptMembers = 32;

// The receipt, member by member in its order. engine_block(key) gives the engine's block `key`
// (topology, post_update_forward, post_update_loss) or nullopt; it is asked only for the blocks
// the receipt takes. verbatim(r, key, value) puts the sidecar's member `key` into `r` as it is
// (moved, or marked to be read from the sidecar itself: compose()).
template <class V, class EngineBlock, class Verbatim>
ordered_json observer_receipt(const V& sidecar, EngineBlock&& engine_block, const ObserverFields& f,
                              Verbatim&& verbatim) {
  static const V kNull;
  const auto at = [](const V* v) -> const V& { return v ? *v : kNull; };
  // The sidecar schema makes source_framework an object with a string name and version.
  const V& framework = at(member(sidecar, "source_framework"));
  const std::string name(reconcile::text_or_empty(at(member(framework, "name"))));
  const std::string version(reconcile::text_or_empty(at(member(framework, "version"))));
  const auto [extractor_name, extractor_version] = split_identity(extractor_identity(f.framework, f.multi));

  ordered_json r = ordered_json::object();
  // Room for every member first: ordered_json's members are pairs with a const key, which a
  // growing vector copies rather than moves, and with them every block already moved in.
  r.get_ref<ordered_json::object_t&>().reserve(kReceiptMembers);
  r["schema_version"] = schema_version_of(sidecar);
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
  if (const V* uri = member(framework, "information_uri")) source["information_uri"] = reconcile::to_tree(*uri);
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
  provenance["source_format"] = reconcile::to_tree(at(member(sidecar, "format")));
  provenance["source_hash"] = f.source_hash;
  provenance["import_timestamp"] = f.import_timestamp;
  ordered_json& metadata = r["metadata"];
  metadata["source"] = "bp-import-" + std::string(framework_name(f.framework)) + (f.multi ? " multi" : "") +
                       " (sidecar from " + name + "@" + version + ")";
  metadata["gradient_convention"] = "descent_direction";
  if (const V* policy = member(sidecar, "numeric_policy")) {
    verbatim(r, "numeric_policy", *policy);
  } else {
    r["numeric_policy"] = default_numeric_policy();
  }
  if (const V* declared = member(sidecar, "bias_policy")) {
    verbatim(r, "bias_policy", *declared);
  } else {
    r["bias_policy"] = resolve_bias_policy(sidecar);
  }
  if (std::optional<ordered_json> topology = engine_block("topology")) r["topology"] = std::move(*topology);
  if (const V* lr = member(sidecar, "learning_rate")) {  // the sidecar schema requires it
    verbatim(r, "learning_rate", *lr);
  } else {
    r["learning_rate"] = nullptr;
  }
  const OptimizerTraits<V> t = traits_of(sidecar);
  if (t.block && (t.adam_family || t.momentum || t.coupled_l2)) r["optimizer_config"] = forwarded_optimizer_config(*t.block);
  for (const char* key : {"batch", "inputs", "targets", "parameters_before", "per_sample", "forward", "loss",
                          "backward", "updates", "parameters_after"}) {
    if (const V* v = member(sidecar, key)) verbatim(r, key, *v);
  }
  for (const char* key : {"post_update_forward", "post_update_loss"}) {
    const V* v = member(sidecar, key);
    if (v && !v->is_null()) {
      verbatim(r, key, *v);
    } else if (std::optional<ordered_json> e = engine_block(key)) {
      r[key] = std::move(*e);
    }
  }
  return r;
}

// The blocks of the engine's struct a receipt takes.
std::optional<ordered_json> engine_block_of(const receipt::engine::GeneralReceipt& engine, std::string_view key) {
  if (key == "topology") return receipt::engine::topology_json(engine.topology());
  if (key == "post_update_forward") return receipt::engine::forward_json(engine.topology(), engine.post_forward, "filled");
  if (key == "post_update_loss") return receipt::engine::post_update_loss_json(engine);
  return std::nullopt;
}

// The tree form's verbatim: the consumed sidecar's member moved into the receipt.
auto moved_from(ordered_json& consumed) {
  return [&consumed](ordered_json& r, const char* key, const ordered_json&) {
    r[key] = std::move(*owned_member(consumed, key));
  };
}

}  // namespace

std::string observer_schema_version(const ordered_json& sidecar) { return schema_version_of(sidecar); }

ordered_json build_observer_receipt(ordered_json&& consumed_sidecar, ordered_json&& consumed_engine,
                                    const ObserverFields& f) {
  return observer_receipt(
      std::as_const(consumed_sidecar),
      [&](const char* key) -> std::optional<ordered_json> {
        ordered_json* v = owned_member(consumed_engine, key);
        return v ? std::optional<ordered_json>(std::move(*v)) : std::nullopt;
      },
      f, moved_from(consumed_sidecar));
}

ordered_json build_observer_receipt(ordered_json&& consumed_sidecar, const receipt::engine::GeneralReceipt& engine,
                                    const ObserverFields& f) {
  return observer_receipt(
      std::as_const(consumed_sidecar), [&](std::string_view key) { return engine_block_of(engine, key); }, f,
      moved_from(consumed_sidecar));
}

namespace {

// The engine's topology block as a receipt value, kept while a thread's records repeat their
// topology's bytes (a stream's do): built, read and freed once rather than at every step (the
// block was a fifth of composing a receipt). The engine's topology is parsed from those bytes
// alone, so equal bytes give an equal block.
struct TopologyBlock {
  bool valid = false;
  std::string bytes;
  ordered_json tree;
  std::unique_ptr<reconcile::ReadReceipt> read;
};

const Json& topology_block(const reconcile::ReadReceipt& sidecar, const receipt::engine::GeneralReceipt& engine) {
  thread_local TopologyBlock kept;
  const std::optional<std::string_view> span = sidecar.member_span("topology");
  if (!kept.valid || !span || kept.bytes != *span) {
    kept.read.reset();
    kept.tree = receipt::engine::topology_json(engine.topology());
    kept.read = std::make_unique<reconcile::ReadReceipt>(kept.tree);
    kept.bytes.assign(span.value_or(""));
    kept.valid = span.has_value();
    // Its members built now, in the kept arena: the receipts copy the block's own node, so that
    // a copy never builds (and keeps) them again.
    static_cast<void>(kept.read->root().begin());
  }
  return kept.read->root();
}

}  // namespace

ComposedReceipt::ComposedReceipt(const reconcile::ReadReceipt& sidecar, const receipt::engine::GeneralReceipt& engine,
                                 const ObserverFields& f)
    : sidecar_(sidecar) {
  own_ = observer_receipt(
      sidecar.root(),
      [&](std::string_view key) -> std::optional<ordered_json> {
        if (key != "topology") return engine_block_of(engine, key);
        topology_ = &topology_block(sidecar, engine);
        return ordered_json();  // its place in the order; the value is topology_ (compose)
      },
      f,
      [this](ordered_json& r, const char* key, const Json&) {
        r[key] = nullptr;  // its place in the order; the value is the sidecar's (compose)
        from_sidecar_.emplace_back(key);
      });
}

ComposedReceipt::~ComposedReceipt() = default;

const Json& ComposedReceipt::root() {
  own_read_ = std::make_unique<reconcile::ReadReceipt>(own_);
  const Json& own = own_read_->root();
  members_.clear();
  members_.reserve(own.size());
  // The sidecar's members stand in own_ in the order they were placed there.
  std::size_t next = 0;
  for (const reconcile::JsonMember& m : own.members()) {
    if (next < from_sidecar_.size() && m.first == from_sidecar_[next]) {
      members_.push_back({m.first, *member(sidecar_.root(), from_sidecar_[next++])});
    } else if (topology_ != nullptr && m.first == "topology") {
      members_.push_back({m.first, *topology_});
    } else {
      members_.push_back(m);
    }
  }
  root_ = Json::object_over(members_.data(), members_.size());
  return root_;
}

}  // namespace importer
