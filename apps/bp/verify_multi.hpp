#pragma once
// `bp verify multi <file.jsonl|->`, streaming: records are read one line at a time, parsed,
// schema-checked and reconciled (per-record rules, then fed to reconcile::MultiStepReconciler for
// the cross-record rules) and released; only the cross-record state and a running verdict stay in
// memory. The per-record part of the report (human or --json), which the reference prints after the
// overall verdict, is spooled to an unlinked temporary file and copied out at the end.
//
// The report has the reference's shape: per record schema[i] and reconcile[i]; cross-record
// "multi-step-rules-9-10" (every record's failures prefixed receipts[i]., then rules 9, 10, 17, 25,
// 26; skipped when any record fails its schema) and "math-gate" when a record self-declares the
// Rule 14 skip; record_count; rules_evaluated / gated_off for the bundle.
#include <string>
#include <variant>

#include "argv_scan.hpp"
#include "cli_error.hpp"

namespace bp::cli {

// Largest single record (line) accepted, in bytes; a longer line is refused (exit 2) after reading
// at most this much of it.
inline constexpr std::size_t kMaxRecordBytes = std::size_t{256} * 1024 * 1024;

// Verifies `file` ("-" = stdin) and writes the report; returns the exit status.
[[nodiscard]] int verify_multi_file(const Invocation& inv, const std::string& file);

// The verdict alone, for `bp verify general DIR` meeting a file of several records.
struct MultiVerdict {
  std::string overall;        // "pass" | "warn" | "fail"
  std::size_t records = 0;
  std::string first_problem;  // the first check that is not a pass, "name: message"
};
[[nodiscard]] std::variant<MultiVerdict, CliError> verify_multi_verdict(const Invocation& inv, const std::string& file);

}  // namespace bp::cli
