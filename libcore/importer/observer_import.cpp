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
#include "importer/stream_import.hpp"
#include "importer/witnessed_step.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;

namespace {

std::string sha256_label(std::string_view bytes) { return "sha256:" + common::sha256_hex(bytes); }

common::Error prefixed(std::string_view label, const common::Error& e) {
  return common::Error::malformed(std::string(label) + ": " + e.message());
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
  auto read = read_sidecar(bytes, label, "sidecar bytes are", {.label = label, .single_step = options.framework});
  if (!read) return read.error();
  const ordered_json& sidecar = read->doc;
  if (auto s = check_framework_name(sidecar, options.framework, label); !s) return s.error();
  if (auto s = check_format_matches_body(sidecar, label); !s) return s.error();
  if (auto s = check_collection_caps(sidecar, label); !s) return s.error();
  if (auto s = check_cross_references(sidecar, label); !s) return s.error();

  auto w = detail::witness(sidecar, options.differential_tolerance, read->topology_bytes);
  if (!w) return prefixed(label, w.error());
  ObserverFields f;
  f.framework = options.framework;
  f.fixture = sidecar["source_framework"]["name"].get<std::string>() + "-imported-step";
  f.source_hash = source_hash;
  f.import_timestamp = options.import_timestamp;
  f.differential_tolerance = options.differential_tolerance;
  f.differential_passed = w->outcome.passed;
  const ordered_json receipt_doc = build_observer_receipt(std::move(read->doc), w->engine, f);
  auto line = receipt::emit::emit_receipt_line(receipt_doc);
  if (!line) return common::Error::malformed(label + ": " + detail::emission_failure(line.error(), receipt_doc, ""));
  ImportResult result;
  result.bytes = std::move(*line);
  result.steps.push_back(std::move(w->outcome));
  return result;
}

common::Result<ImportResult> import_sidecar_stream(std::string_view bytes, const ImportOptions& options) {
  const std::string label = caller_label(options.framework, true);
  if (is_capture(bytes)) {
    auto text = expanded_capture(bytes, label);
    if (!text) return text.error();
    return import_sidecar_stream(*text, options);
  }
  if (auto s = check_not_empty(bytes, label); !s) return s.error();
  std::string out;  // the receipts, each with the placeholder digest
  // A receipt is about its sidecar's size: room for that up front spares the doublings' copies.
  out.reserve(bytes.size() + bytes.size() / 8);
  StreamImport stream(options, sha256_label(bytes), [&out](std::string_view receipt) { out += receipt; });
  for (std::string_view rest = bytes;;) {
    const auto nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (auto s = stream.add_line(line); !s) return s.error();
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  auto outcome = stream.finish();
  if (!outcome) return outcome.error();
  patch_digests(*outcome, 0, out);
  ImportResult result;
  result.bytes = std::move(out);
  result.steps = std::move(outcome->steps);
  result.bundle_root_digest = std::move(outcome->bundle_root_digest);
  return result;
}

}  // namespace importer
