#include "importer/sidecar_checks.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>
#include <vector>

#include "common/js_json_text.hpp"
#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "common/same_key.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

constexpr std::array<std::string_view, 7> kSingleStepFormats = {
    "framework-trace.v0.1.0", "framework-trace.v0.3.0", "framework-trace.v0.4.0", "framework-trace.v0.5.0",
    "framework-trace.v0.6.0", "framework-trace.v0.7.0", "framework-trace.v0.8.0"};
constexpr std::string_view kMultiStepBaseline = "framework-trace.v0.2.0";
constexpr std::array<std::string_view, 4> kSupportedOptimizers = {"sgd", "sgd_momentum", "adam", "adamw"};

common::Error fail(std::string_view label, const std::string& message) {
  return common::Error::malformed(std::string(label) + ": " + message);
}

template <typename List>
std::string join(const List& items, std::string_view sep) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

// Length of the whitespace code point at `s` (0 when none), per ECMAScript WhiteSpace + LineTerminator.
std::size_t whitespace_at(std::string_view s) {
  const auto b = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
  const unsigned c = b(0);
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') return 1;
  if (c == 0xC2 && b(1) == 0xA0) return 2;                                     // U+00A0
  if (c == 0xEF && b(1) == 0xBB && b(2) == 0xBF) return 3;                     // U+FEFF
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) return 3;                     // U+1680
  if (c == 0xE2 && b(1) == 0x80 && (b(2) <= 0x8A || b(2) == 0xA8 || b(2) == 0xA9 || b(2) == 0xAF)) return 3;
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) return 3;                     // U+205F
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) return 3;                     // U+3000
  return 0;
}

// Length of the whitespace code point ending at s.size() (0 when none).
std::size_t whitespace_before_end(std::string_view s) {
  for (std::size_t len : {1u, 2u, 3u}) {
    if (s.size() >= len && whitespace_at(s.substr(s.size() - len)) == len) return len;
  }
  return 0;
}

}  // namespace

std::string_view js_trim(std::string_view text) {
  while (!text.empty()) {
    const std::size_t n = whitespace_at(text);
    if (n == 0) break;
    text.remove_prefix(n);
  }
  while (!text.empty()) {
    const std::size_t n = whitespace_before_end(text);
    if (n == 0) break;
    text.remove_suffix(n);
  }
  return text;
}

common::Status check_not_empty(std::string_view bytes, std::string_view label) {
  if (!js_trim(bytes).empty()) return {};
  return fail(label,
              "sidecar is empty (no non-whitespace content). Hint: an empty or whitespace-only input usually means a "
              "missing or mis-piped file (e.g. `bp import ... < missing.jsonl` or an empty redirection). Provide a "
              "sidecar containing one JSON object (single-step) or one JSON object per line (multi-step JSONL).");
}

common::Status check_ingest_cap(std::string_view bytes, std::string_view label) {
  if (bytes.size() <= kMaxSidecarIngestBytes) return {};
  return fail(label, "sidecar exceeds verifier ingest cap (" + std::to_string(bytes.size()) +
                         " bytes > MAX_SIDECAR_INGEST_BYTES=" + std::to_string(kMaxSidecarIngestBytes) +
                         "). Hint: a single-step sidecar is a few KB; split a genuine large trace into steps or "
                         "correct the producer.");
}

namespace {

common::Error not_json(std::string_view label, std::string_view what, const common::Error& e) {
  const std::string line = e.where().line > 0 ? " at line " + std::to_string(e.where().line) : "";
  return fail(label, std::string(what) + " not valid JSON" + line + ": " + e.to_string());
}

// The sidecar's trimmed text and the reader's options for it.
struct Trimmed {
  std::string_view text;
  common::JsonInputOptions options;
};

Trimmed trimmed_sidecar(std::string_view text) {
  Trimmed t;
  t.options.bom = common::BomPolicy::strip;
  t.text = js_trim(text);
  // Lines count from the file's first, not the first after the whitespace trimmed off.
  t.options.first_line = 1 + std::count(text.data(), t.text.data(), '\n');
  return t;
}

// doc.key1.key2 when it is a string: of the tree and of the document alike.
std::optional<std::string_view> string_at(const ordered_json& doc, std::string_view key1, std::string_view key2 = {}) {
  const ordered_json* v = member(doc, key1);
  if (v && !key2.empty()) v = member(*v, key2);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string_view(v->get_ref<const std::string&>());
}

std::optional<std::string_view> string_at(common::JsonView doc, std::string_view key1, std::string_view key2 = {}) {
  std::optional<common::JsonView> v = doc.is_object() ? doc.find(key1) : std::nullopt;
  if (v && !key2.empty()) v = v->is_object() ? v->find(key2) : std::nullopt;
  if (!v || !v->is_string()) return std::nullopt;
  return v->string();
}

template <typename Doc>
common::Status single_step_format_of(const Doc& doc, Framework f, std::string_view label) {
  const auto format = string_at(doc, "format");
  if (!format) return {};
  const std::string declared(*format);
  if (std::find(kSingleStepFormats.begin(), kSingleStepFormats.end(), declared) != kSingleStepFormats.end()) return {};
  const std::string fw(framework_name(f));
  if (declared == kMultiStepBaseline) {
    return fail(label, "sidecar declares format='" + declared +
                           "', which is a MULTI-STEP (JSONL stream) sidecar baseline. The single-step importer "
                           "accepts only single-step sidecars (" + join(kSingleStepFormats, ", ") +
                           "). HINT: import this with the multi-step subcommand — `bp import " + fw +
                           " multi <file>`.");
  }
  return fail(label, "unsupported sidecar format version '" + declared + "' (supported single-step: " +
                         join(kSingleStepFormats, ", ") +
                         "). HINT: check the sidecar's `format` field — it must be one of the supported single-step "
                         "versions. A v0.2.0 sidecar is multi-step (use `bp import " + fw +
                         " multi <file>`); an unknown version means the sidecar was produced by a newer/older helper "
                         "than this bp supports.");
}

template <typename Doc>
common::Status optimizer_supported_of(const Doc& doc, std::string_view label) {
  const auto name = string_at(doc, "optimizer", "name");
  if (!name) return {};
  const std::string n(*name);
  if (std::find(kSupportedOptimizers.begin(), kSupportedOptimizers.end(), n) != kSupportedOptimizers.end()) return {};
  return fail(label, "sidecar declares optimizer.name='" + n + "', which is not a supported optimizer. "
                     "Supported optimizers: " + join(kSupportedOptimizers, ", ") +
                     ". Hint: bp verifies a closed set of optimizers (plain SGD, SGD with momentum — classical / "
                     "Nesterov / dampening — and Adam / AdamW). An unsupported optimizer (e.g. Lion, AMSGrad, "
                     "RMSProp) cannot be re-derived by the engine, so the sidecar is rejected here rather than "
                     "producing an unverifiable receipt. Re-run the training step with a supported optimizer, or "
                     "omit the optimizer block for a plain-SGD step.");
}

template <typename Doc>
common::Result<std::string> validated_version_of(const Doc& doc, std::string_view label, std::string_view suffix) {
  const std::string version = schema_registry::pick_framework_trace_version(doc);
  const ordered_json* schema = schema_registry::find_schema("framework-trace.v" + version);
  if (!schema) return fail(label, "no framework-trace schema v" + version + " in this build");
  const auto errors = schema_registry::validate(*schema, doc, 1);
  if (errors.empty()) return version;
  const auto& e = errors.front();
  const std::string path = e.where().json_path.empty() ? "/" : e.where().json_path;
  return fail(label, "sidecar failed framework-trace.v" + version + " validation: " + path + ": " + e.message() +
                         std::string(suffix));
}

// The gate's checks, in the reference's order; the version the schema check settled on.
template <typename Doc>
common::Result<std::string> gate_of(const Doc& doc, const SidecarGate& gate) {
  if (gate.single_step) {
    if (auto s = single_step_format_of(doc, *gate.single_step, gate.label); !s) return s.error();
  }
  if (auto s = optimizer_supported_of(doc, gate.label); !s) return s.error();
  return validated_version_of(doc, gate.label, gate.suffix);
}

}  // namespace

common::Result<ordered_json> parse_sidecar(std::string_view text, std::string_view label, std::string_view what) {
  const Trimmed t = trimmed_sidecar(text);
  auto doc = common::parse_json_text(t.text, t.options);
  if (!doc) return not_json(label, what, doc.error());
  return std::move(*doc);
}

common::Status check_single_step_format(const ordered_json& doc, Framework f, std::string_view label) {
  return single_step_format_of(doc, f, label);
}

common::Status check_optimizer_supported(const ordered_json& doc, std::string_view label) {
  return optimizer_supported_of(doc, label);
}

common::Result<std::string> validate_sidecar(const ordered_json& doc, std::string_view label,
                                             std::string_view suffix) {
  return validated_version_of(doc, label, suffix);
}

namespace {

// The sidecar's document, gated, and the version its gate settled on; `owner`, when given, holds
// `text` (from its first byte) and keeps it unless the document is returned (the document then
// holds it). The document owns its text: the caller's string, trimmed in place, or else a copy.
struct GatedRead {
  common::JsonDocument doc;
  std::string version;
};
common::Result<GatedRead> read_gated_document(std::string_view text, std::string* owner, std::string_view label,
                                              std::string_view what, const SidecarGate& gate) {
  const Trimmed t = trimmed_sidecar(text);
  std::string local;
  std::string& owned = owner != nullptr ? *owner : local;
  if (owner != nullptr) {
    const auto from = static_cast<std::size_t>(t.text.data() - text.data());
    owner->resize(from + t.text.size());
    owner->erase(0, from);
  } else {
    local.assign(t.text);
  }
  auto doc = common::parse_json_document_keeping(owned, t.options);
  if (!doc) return not_json(label, what, doc.error());
  auto version = gate_of(doc->root(), gate);
  if (!version) {
    if (owned.empty()) owned = std::move(doc->text());  // taken by the document: given back
    return version.error();
  }
  return GatedRead{std::move(*doc), std::move(*version)};
}

common::Result<GatedSidecar> read_gated(std::string_view text, std::string* owner, std::string_view label,
                                        std::string_view what, const SidecarGate& gate) {
  auto read = read_gated_document(text, owner, label, what, gate);
  if (!read) return read.error();
  GatedSidecar out{common::to_ordered_json(read->doc.root()), std::move(read->version),
                   std::string(read->doc.root().member_span("topology").value_or(""))};
  if (owner != nullptr && owner->empty()) *owner = std::move(read->doc.text());  // given back
  return out;
}

}  // namespace

common::Result<GatedSidecar> read_sidecar(std::string_view text, std::string_view label, std::string_view what,
                                          const SidecarGate& gate) {
  return read_gated(text, nullptr, label, what, gate);
}

common::Result<GatedSidecar> read_sidecar(std::string& text, std::string_view label, std::string_view what,
                                          const SidecarGate& gate) {
  return read_gated(text, &text, label, what, gate);
}

common::Result<GatedDocument> read_sidecar_document(std::string& text, std::string_view label, std::string_view what,
                                                    const SidecarGate& gate) {
  auto read = read_gated_document(text, &text, label, what, gate);
  if (!read) return read.error();
  std::string topology(read->doc.root().member_span("topology").value_or(""));
  return GatedDocument{std::move(read->doc), std::move(read->version), std::move(topology)};
}

common::Status check_framework_name(const ordered_json& doc, Framework f, std::string_view label) {
  const std::string& name = doc["source_framework"]["name"].get_ref<const std::string&>();
  if (name == framework_name(f)) return {};
  return fail(label, "sidecar declares source_framework.name='" + name + "', but " + std::string(label) +
                         " accepts only '" + std::string(framework_name(f)) +
                         "'. Use the matching importer for this framework, or correct the sidecar's "
                         "source_framework.name.");
}

common::Status check_format_matches_body(const ordered_json& doc, std::string_view label) {
  const std::string& format = doc["format"].get_ref<const std::string&>();
  std::vector<std::string_view> required;
  if (format == "framework-trace.v0.4.0") required = {"adam", "adamw"};
  if (format == "framework-trace.v0.5.0" || format == "framework-trace.v0.6.0") required = {"sgd_momentum"};
  if (format == "framework-trace.v0.8.0") required = {"sgd", "sgd_momentum"};
  if (required.empty()) return {};
  const ordered_json* optimizer = member(doc, "optimizer");
  const ordered_json* name = optimizer ? member(*optimizer, "name") : nullptr;
  if (name && name->is_string() &&
      std::find(required.begin(), required.end(), name->get_ref<const std::string&>()) != required.end()) {
    return {};
  }
  const std::string got = name && name->is_string() ? "'" + name->get<std::string>() + "'" : "no optimizer block";
  return fail(label, "sidecar declares format='" + format +
                         "' but its body does not match that format's optimizer contract (expected optimizer.name ∈ {" +
                         join(required, ", ") + "}, got " + got +
                         "). This looks like a MISLABELED sidecar. HINT: a plain-SGD step is "
                         "'framework-trace.v0.1.0'; set `format` to match the optimizer the step actually used, or "
                         "add the matching `optimizer` block.");
}

namespace {

template <class V>
common::Status collection_caps_of(const V& doc, std::string_view label) {
  const auto reject = [&](const std::string& what, std::size_t n) {
    return fail(label, "sidecar exceeds verifier ingest cap — " + what + " has " + std::to_string(n) +
                           " entries (> MAX_SIDECAR_COLLECTION_ENTRIES=" +
                           std::to_string(kMaxSidecarCollectionEntries) +
                           "). This sidecar is malformed for single-step ingestion — split it or correct the "
                           "producer.");
  };
  if (const V* u = member(doc, "updates"); u && u->is_array() && u->size() > kMaxSidecarCollectionEntries) {
    return reject("updates[]", u->size());
  }
  const V* loss = member(doc, "loss");
  const std::pair<const char*, const V*> maps[] = {
      {"inputs", member(doc, "inputs")},
      {"targets", member(doc, "targets")},
      {"parameters_before", member(doc, "parameters_before")},
      {"parameters_after", member(doc, "parameters_after")},
      {"forward", member(doc, "forward")},
      {"loss.per_output", loss ? member(*loss, "per_output") : nullptr}};
  for (const auto& [name, m] : maps) {
    if (m && m->is_object() && m->size() > kMaxSidecarCollectionEntries) return reject(name, m->size());
  }
  return {};
}

template <class V>
common::Status cross_references_of(const V& doc, std::string_view label) {
  const V* topology = member(doc, "topology");
  const V* order = topology ? member(*topology, "parameter_order") : nullptr;
  if (!order || !order->is_array()) return {};
  const V* after = member(doc, "parameters_after");
  if (after && !after->is_object()) after = nullptr;  // no after-values: every declared id is missing
  // The usual sidecar: parameters_after holds exactly the declared ids, in their order.
  if (after && after->size() == order->size()) {
    auto at = after->begin();
    bool same = true;
    for (const auto& id : *order) {
      if (!id.is_string() || !common::same_key(at.key(), reconcile::text_or_empty(id))) {
        same = false;
        break;
      }
      ++at;
    }
    if (same) return {};
  }
  std::unordered_set<std::string_view> declared;
  ordered_json missing = ordered_json::array();
  for (const auto& id : *order) {
    if (!id.is_string()) continue;
    const std::string_view declared_id = reconcile::text_or_empty(id);
    declared.insert(declared_id);
    if (!after || !after->contains(declared_id)) missing.push_back(std::string(declared_id));
  }
  if (!missing.empty()) {
    return fail(label, "sidecar parameters_after is missing parameter(s) " + common::js_stringify(missing) +
                           " declared in topology.parameter_order; every declared parameter must have an after-value. "
                           "Hint: parameters_after's key set must EQUAL topology.parameter_order (the same "
                           "COMPLETENESS invariant Rule 14 enforces at reconcile — caught here EARLY so a dropped "
                           "final-state value is named at import time, not deferred to verification).");
  }
  if (!after) return {};  // no ids declared either
  ordered_json extra = ordered_json::array();
  for (auto it = after->begin(); it != after->end(); ++it) {
    if (declared.count(std::string_view(it.key())) == 0) extra.push_back(std::string(it.key()));
  }
  if (!extra.empty()) {
    return fail(label, "sidecar parameters_after declares parameter(s) " + common::js_stringify(extra) +
                           " NOT present in topology.parameter_order; parameters_after's key set must EQUAL "
                           "topology.parameter_order (no extra/undeclared final-state keys).");
  }
  return {};
}

}  // namespace

common::Status check_collection_caps(const ordered_json& doc, std::string_view label) {
  return collection_caps_of(doc, label);
}
common::Status check_collection_caps(const reconcile::Json& doc, std::string_view label) {
  return collection_caps_of(doc, label);
}
common::Status check_cross_references(const ordered_json& doc, std::string_view label) {
  return cross_references_of(doc, label);
}
common::Status check_cross_references(const reconcile::Json& doc, std::string_view label) {
  return cross_references_of(doc, label);
}

}  // namespace importer
