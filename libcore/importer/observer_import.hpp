#pragma once
// bp import: a framework-trace sidecar in, observer-mode receipts out, with our engine as the
// differential witness. One core for every framework (the framework only names what the
// sidecar must declare and what the receipt records).
//
//   importer::ImportOptions opts{importer::Framework::pytorch, "2026-01-01T00:00:00.000Z"};
//   auto r = importer::import_sidecar(bytes, opts);          // one step (one JSON document)
//   auto m = importer::import_sidecar_stream(bytes, opts);   // JSONL, one step per line
//   if (!r) ... r.error() (malformed: the input is refused, no receipt)
//   r->bytes is always the receipts, also when r->all_passed() is false.
//
// Pipeline: hash the raw bytes (source_hash) before parsing; parse strictly; check the format
// version and validate against that framework-trace schema; require source_framework.name to
// be the subcommand's; re-run the step with the engine; compare every claimed number the engine
// recomputes (differential.hpp); build the receipt and emit canonical bytes. Multi-step: one
// framework and version throughout, trace_id on every record or none (then synthesized from
// the source hash), step_index dense from 0 or absent everywhere (then 0..N-1), and
// attestor.bundle_root_digest = sha256 of the receipts' canonical bytes without it.
// The import timestamp is the caller's (the library reads no clock).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json_input.hpp"
#include "common/result.hpp"
#include "importer/differential.hpp"
#include "importer/framework.hpp"

namespace importer {

struct ImportOptions {
  Framework framework = Framework::pytorch;
  std::string import_timestamp;  // written to attestor.import_provenance.import_timestamp
  reconcile::Tolerance differential_tolerance = kDefaultDifferentialTolerance;
  // One line of a streamed trace (stream_file_import.hpp) at most; smaller only in tests.
  std::size_t max_line_bytes = common::kMaxJsonInputBytes;
  // Threads that import a streamed trace's records (stream_file_import.hpp); the receipts are
  // the same bytes whatever the number.
  std::size_t jobs = 1;
};

struct StepOutcome {
  bool passed = true;
  std::vector<Disagreement> disagreements;
};

struct ImportResult {
  std::string bytes;                               // canonical receipts, one line each
  std::vector<StepOutcome> steps;                  // one per receipt
  std::optional<std::string> bundle_root_digest;   // multi-step: "sha256:<hex>"
  [[nodiscard]] bool all_passed() const;
};

[[nodiscard]] common::Result<ImportResult> import_sidecar(std::string_view bytes, const ImportOptions& options);
[[nodiscard]] common::Result<ImportResult> import_sidecar_stream(std::string_view bytes, const ImportOptions& options);

}  // namespace importer
