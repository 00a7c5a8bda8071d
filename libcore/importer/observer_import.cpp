#include "importer/observer_import.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "common/json_input.hpp"
#include "common/number_format.hpp"
#include "common/sha256.hpp"
#include "importer/engine_witness.hpp"
#include "importer/helper_capture.hpp"
#include "importer/observer_receipt.hpp"
#include "importer/sidecar_checks.hpp"
#include "importer/stream_facts.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;

namespace {

std::string sha256_label(std::string_view bytes) { return "sha256:" + common::sha256_hex(bytes); }

common::Error prefixed(std::string_view label, const common::Error& e) {
  return common::Error::malformed(std::string(label) + ": " + e.message());
}

// Splits at "\n" (a "\r" before it goes too), trims each line, keeps the non-empty ones.
std::vector<std::string_view> record_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = js_trim(line);
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// Same length as a real digest, so replacing it in place moves nothing.
const std::string kDigestPlaceholder = "sha256:" + std::string(64, '0');

// JSON pointer of the first number a receipt cannot spell (outside [1e-13, 1e7)), so the
// refusal says where: Adam's second moment of a tiny gradient is the usual one.
std::optional<std::string> unwritable_number_path(const ordered_json& j, const std::string& path) {
  if (j.is_number()) {
    if (common::format_receipt_number(j.get<double>())) return std::nullopt;
    return path.empty() ? std::string("/") : path;
  }
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (auto p = unwritable_number_path(it.value(), path + "/" + common::json_pointer_token(it.key()))) return p;
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto p = unwritable_number_path(j[i], path + "/" + std::to_string(i))) return p;
    }
  }
  return std::nullopt;
}

// An emission failure, with the receipt field it came from when that can be found.
std::string emission_failure(const common::Error& e, const ordered_json& receipt, const std::string& where_prefix) {
  auto at = unwritable_number_path(receipt, "");
  return at ? e.message() + " (receipt field " + where_prefix + *at + ")" : e.message();
}

struct Witnessed {
  receipt::engine::GeneralReceipt engine;
  StepOutcome outcome;
};

// The engine's receipt stays a struct: the differential reads it, and the observer receipt
// takes only the blocks it needs from it, so no tree of the whole engine receipt is built.
common::Result<Witnessed> witness(const ordered_json& sidecar, reconcile::Tolerance tolerance) {
  auto engine = run_witness(sidecar);
  if (!engine) return engine.error();
  Witnessed w{std::move(*engine), {}};
  w.outcome.disagreements = compare_with_engine(w.engine, sidecar, tolerance);
  w.outcome.passed = w.outcome.disagreements.empty();
  return w;
}

}  // namespace

bool ImportResult::all_passed() const {
  return std::all_of(steps.begin(), steps.end(), [](const StepOutcome& s) { return s.passed; });
}

namespace {

// A helper capture is imported as the sidecar bytes it expands to (their hash is the source_hash),
// so a step gives the same receipt whichever way the helper wrote it. A capture that expands to
// another is refused: each level would be expanded in turn, as deep as a crafted file nests them.
common::Result<std::string> expanded_capture(std::string_view bytes, const std::string& label) {
  auto text = expand_capture(bytes, common::kMaxJsonInputBytes);
  if (!text) return prefixed(label, text.error());
  if (is_capture(*text)) {
    return common::Error::malformed(label + ": helper capture: it expands to another capture, not to sidecars");
  }
  return text;
}

}  // namespace

common::Result<ImportResult> import_sidecar(std::string_view bytes, const ImportOptions& options) {
  const std::string label = caller_label(options.framework, false);
  if (is_capture(bytes)) {
    auto text = expanded_capture(bytes, label);
    if (!text) return text.error();
    return import_sidecar(*text, options);
  }
  if (auto s = check_not_empty(bytes, label); !s) return s.error();
  const std::string source_hash = sha256_label(bytes);
  if (auto s = check_ingest_cap(bytes, label); !s) return s.error();
  auto parsed = parse_sidecar(bytes, label, "sidecar bytes are");
  if (!parsed) return parsed.error();
  const ordered_json& sidecar = *parsed;
  if (auto s = check_single_step_format(sidecar, options.framework, label); !s) return s.error();
  if (auto s = check_optimizer_supported(sidecar, label); !s) return s.error();
  if (auto v = validate_sidecar(sidecar, label); !v) return v.error();
  if (auto s = check_framework_name(sidecar, options.framework, label); !s) return s.error();
  if (auto s = check_format_matches_body(sidecar, label); !s) return s.error();
  if (auto s = check_collection_caps(sidecar, label); !s) return s.error();
  if (auto s = check_cross_references(sidecar, label); !s) return s.error();

  auto w = witness(sidecar, options.differential_tolerance);
  if (!w) return prefixed(label, w.error());
  ObserverFields f;
  f.framework = options.framework;
  f.fixture = sidecar["source_framework"]["name"].get<std::string>() + "-imported-step";
  f.source_hash = source_hash;
  f.import_timestamp = options.import_timestamp;
  f.differential_tolerance = options.differential_tolerance;
  f.differential_passed = w->outcome.passed;
  const ordered_json receipt_doc = build_observer_receipt(std::move(*parsed), w->engine, f);
  auto line = receipt::emit::emit_receipt_line(receipt_doc);
  if (!line) return common::Error::malformed(label + ": " + emission_failure(line.error(), receipt_doc, ""));
  ImportResult result;
  result.bytes = std::move(*line);
  result.steps.push_back(std::move(w->outcome));
  return result;
}

common::Result<ImportResult> import_sidecar_stream(std::string_view bytes, const ImportOptions& options) {
  const std::string label = caller_label(options.framework, true);
  const std::string fw(framework_name(options.framework));
  const auto fail = [&](const std::string& message) { return common::Error::malformed(label + ": " + message); };
  if (is_capture(bytes)) {
    auto text = expanded_capture(bytes, label);
    if (!text) return text.error();
    return import_sidecar_stream(*text, options);
  }
  if (auto s = check_not_empty(bytes, label); !s) return s.error();
  const std::string source_hash = sha256_label(bytes);
  const auto lines = record_lines(bytes);
  if (lines.empty()) {
    return fail("sidecar JSONL stream contains zero records. Multi-step ingestion requires ≥1 record (one JSON "
                "object per line, in step order).");
  }
  // One record at a time: parse, its own checks, its facts for the cross-record rules, then
  // witness, build and emit, and free its trees before the next, so memory does not grow with
  // the record count (only the receipts' text does). The outcome is that of checking every
  // record, then the cross-record rules, then witnessing every record and emitting the bundle:
  // a record's own failure returns at once (every earlier record passed its checks); a broken
  // cross-record rule wins over any witness failure; a witness failure wins over an emission
  // failure at an earlier record, and an emission failure names the first receipt holding a
  // number a receipt cannot spell. After a witness failure only the checks still run.
  StreamFacts facts(fw, label);
  std::optional<std::string> witness_error;
  ImportResult result;
  result.steps.reserve(lines.size());
  std::string out;             // the receipts, each with the placeholder digest
  // A receipt is about its sidecar's size: room for that up front spares the doublings' copies.
  out.reserve(bytes.size() + bytes.size() / 8);
  common::Sha256 unbound_hash;  // the digest's input: the same bytes without the field
  std::optional<common::Error> emit_error;
  std::optional<std::string> unwritable_at;
  bool name_field = true;  // false for a failure of the re-emission without the field
  const std::string field = ",\"bundle_root_digest\":\"" + kDigestPlaceholder + "\"";
  const std::string key_and_placeholder = field.substr(1, field.size() - 2);  // "bundle_root_digest":"sha256:0...
  // Where the field's placeholders are in `out`: only they get the digest, not a sidecar's
  // string that happens to spell the placeholder.
  std::vector<std::size_t> digest_at;
  std::string trace_id;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line_label = label + ": sidecar line " + std::to_string(i + 1);
    auto parsed = parse_sidecar(lines[i], label, "sidecar line " + std::to_string(i + 1) + " is");
    if (!parsed) return parsed.error();
    if (auto s = check_optimizer_supported(*parsed, line_label); !s) return s.error();
    auto version = validate_sidecar(*parsed, line_label,
                                    ". Multi-step ingestion requires framework-trace.v0.2.0 sidecars; if you have a "
                                    "v0.1.0 single-step sidecar, use the single-step subcommand (drop 'multi' from "
                                    "the CLI invocation).");
    if (!version) return version.error();
    if (*version == "0.1.0") {
      return fail("sidecar line " + std::to_string(i + 1) +
                  " declares format='framework-trace.v0.1.0' but multi-step ingestion requires "
                  "'framework-trace.v0.2.0', 'framework-trace.v0.3.0', 'framework-trace.v0.4.0', "
                  "'framework-trace.v0.5.0', 'framework-trace.v0.6.0', 'framework-trace.v0.7.0', or "
                  "'framework-trace.v0.8.0'. Use the single-step subcommand for v0.1.0 sidecars.");
    }
    if (auto s = check_collection_caps(*parsed, line_label); !s) return s.error();
    if (auto s = check_cross_references(*parsed, line_label); !s) return s.error();
    facts.observe(i, *parsed);
    if (i == 0) trace_id = facts.trace_id(source_hash);
    if (witness_error) continue;

    ordered_json sidecar = std::move(*parsed);
    auto w = witness(sidecar, options.differential_tolerance);
    if (!w) {
      witness_error = "record " + std::to_string(i + 1) + " (step_index " + std::to_string(i) +
                      ") failed during engine recompute: " + w.error().message() +
                      " HINT: this record (1-based line " + std::to_string(i + 1) +
                      " of the JSONL stream) is malformed; fix or remove it. Multi-step ingestion is all-or-nothing "
                      "— the whole bundle is rejected so a partial trace is never emitted.";
      continue;
    }
    ObserverFields f;
    f.framework = options.framework;
    f.multi = true;
    f.fixture = facts.framework_name() + "-imported-multi-step-step-" + std::to_string(i);
    f.source_hash = source_hash;
    f.import_timestamp = options.import_timestamp;
    f.differential_tolerance = options.differential_tolerance;
    f.differential_passed = w->outcome.passed;
    f.trace_id = trace_id;
    f.step_index = static_cast<std::int64_t>(i);
    ordered_json receipt = build_observer_receipt(std::move(sidecar), w->engine, f);
    result.steps.push_back(std::move(w->outcome));
    if (emit_error) {  // only the field of the failure's message is still wanted
      if (name_field && !unwritable_at) unwritable_at = unwritable_number_path(receipt, "");
      continue;
    }
    receipt["attestor"]["bundle_root_digest"] = kDigestPlaceholder;
    auto line = receipt::emit::emit_receipt_line(receipt);
    if (!line) {
      const common::Error& e = line.error();
      emit_error = common::Error(e.code(), "record " + std::to_string(i + 1) + ": " + e.message(), e.where());
      unwritable_at = unwritable_number_path(receipt, "");
      continue;
    }
    // The line without the field: its one occurrence cut out (a key's quotes are never escaped,
    // a string's always are), or, should it not occur exactly once, the receipt emitted again
    // without it.
    const std::string_view text(*line);
    const auto at = text.find(field);
    if (at != std::string_view::npos && text.find(field, at + 1) == std::string_view::npos) {
      unbound_hash.update(text.substr(0, at));
      unbound_hash.update(text.substr(at + field.size()));
      digest_at.push_back(out.size() + at + field.size() - kDigestPlaceholder.size() - 1);
    } else {
      for (auto k = text.find(key_and_placeholder); k != std::string_view::npos;
           k = text.find(key_and_placeholder, k + 1)) {
        digest_at.push_back(out.size() + k + key_and_placeholder.size() - kDigestPlaceholder.size());
      }
      receipt["attestor"].erase("bundle_root_digest");
      auto plain = receipt::emit::emit_receipt_line(receipt);
      if (!plain) {
        const common::Error& e = plain.error();
        emit_error = common::Error(e.code(), "record " + std::to_string(i + 1) + ": " + e.message(), e.where());
        name_field = false;
        continue;
      }
      unbound_hash.update(*plain);
    }
    out += *line;
  }
  if (auto broken = facts.first_error()) return fail(*broken);
  if (witness_error) return fail(*witness_error);
  if (emit_error) {
    return fail(name_field && unwritable_at ? emit_error->message() + " (receipt field " + *unwritable_at + ")"
                              : emit_error->message());
  }
  const std::string digest = "sha256:" + common::to_hex(unbound_hash.finish());
  for (const std::size_t at : digest_at) out.replace(at, digest.size(), digest);
  result.bytes = std::move(out);
  result.bundle_root_digest = digest;
  return result;
}

}  // namespace importer
