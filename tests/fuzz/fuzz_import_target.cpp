// import: receipt-shaped JSONL turned into framework-trace sidecars (the step fields, with
// optimizer_config as the optimizer block, under the format its optimizer calls for), imported one step and as a bundle.
// Invariants: the importer never throws; the same bytes import to the same bytes; refusals are
// one-line errors; accepted receipts validate against the receipt schema they name and
// re-emit to the same bytes; a bundle's digest is the sha256 of its bytes without the digest.
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>

#include "common/json_input.hpp"
#include "common/sha256.hpp"
#include "fuzz_targets.hpp"
#include "importer/observer_import.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/schema/schema_registry.hpp"
#include "receipt/schema/validator.hpp"

namespace fuzz {
namespace {

void require(bool ok, const char* invariant, const std::string& detail = {}) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

nlohmann::ordered_json as_sidecar(const nlohmann::ordered_json& r) {
  if (!r.is_object()) return r;
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  const auto oc = r.find("optimizer_config");
  const std::string name = oc != r.end() && oc->is_object() && oc->contains("name") && (*oc)["name"].is_string()
                               ? (*oc)["name"].get<std::string>()
                               : "";
  s["format"] = name == "adam" || name == "adamw" ? "framework-trace.v0.4.0"
                : name == "sgd_momentum"           ? "framework-trace.v0.6.0"
                : name == "sgd"                    ? "framework-trace.v0.8.0"
                                                   : "framework-trace.v0.3.0";
  s["source_framework"] = {{"name", "pytorch"}, {"version", "2.5.0"}};
  for (auto it = r.begin(); it != r.end(); ++it) {
    static const char* const kStep[] = {"trace_id", "step_index", "topology", "learning_rate", "numeric_policy",
                                        "bias_policy", "batch", "inputs", "targets", "parameters_before",
                                        "per_sample", "forward", "loss", "backward", "updates", "parameters_after",
                                        "post_update_forward", "post_update_loss"};
    for (const char* key : kStep) {
      if (it.key() == key) s[key] = it.value();
    }
    if (it.key() == "optimizer_config") s["optimizer"] = it.value();
  }
  return s;
}

void check_accepted(const importer::ImportResult& r) {
  auto records = common::parse_jsonl_text(r.bytes);
  require(records.ok(), "imported receipts parse back", records.ok() ? "" : records.error().to_string());
  require(records->size() == r.steps.size(), "one receipt per step");
  for (const auto& rec : *records) {
    const auto* schema = receipt::schema::find_schema(receipt::schema::pick_receipt_version(rec.value));
    require(schema != nullptr, "observer receipts name a shipped schema version");
    const auto errors = receipt::schema::validate(*schema, rec.value);
    require(errors.empty(), "observer receipts are schema-valid", errors.empty() ? "" : errors.front().to_string());
    auto again = receipt::emit::emit_receipt_line(rec.value);
    require(again.ok() && r.bytes.find(*again) != std::string::npos, "observer receipts re-emit to their bytes");
  }
}

void check_refused(const common::Error& e) {
  require(!e.message().empty(), "error has a message");
  require(e.to_string().find('\n') == std::string::npos, "error is one line", e.to_string());
}

}  // namespace

Depth import_target(std::string_view data) {
  common::JsonInputOptions o;
  o.max_bytes = 1 << 20;
  o.bom = common::BomPolicy::strip;
  auto records = common::parse_jsonl_text(data, o);
  if (!records) return Depth::parse_refused;
  if (records->size() > 16) return Depth::later_refused;
  std::string single, bundle;
  for (const auto& r : *records) {
    const std::string line = as_sidecar(r.value).dump();
    if (single.empty()) single = line;
    bundle += line + "\n";
  }
  importer::ImportOptions options;
  options.import_timestamp = "2026-01-01T00:00:00.000Z";
  Depth depth = Depth::later_refused;
  auto one = importer::import_sidecar(single, options);
  auto same = importer::import_sidecar(single, options);
  require(one.ok() == same.ok() && (!one.ok() || one->bytes == same->bytes), "import is deterministic");
  if (one.ok()) {
    check_accepted(*one);
    depth = Depth::accepted;
  } else {
    check_refused(one.error());
  }
  auto many = importer::import_sidecar_stream(bundle, options);
  if (many.ok()) {
    check_accepted(*many);
    const std::string unbound =
        std::regex_replace(many->bytes, std::regex(",\"bundle_root_digest\":\"sha256:[0-9a-f]{64}\""), "");
    require(many->bundle_root_digest == "sha256:" + common::sha256_hex(unbound), "bundle digest covers the bundle");
    depth = Depth::accepted;
  } else {
    check_refused(many.error());
  }
  return depth;
}

}  // namespace fuzz
