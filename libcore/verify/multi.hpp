#pragma once
// `verify multi`, streaming: JSON Lines records are read from a file descriptor one line at a time,
// parsed, schema-checked and reconciled (multi_run.hpp) and released; only the cross-record state
// and a running verdict stay in memory. The per-record part of the report, which the reference
// prints after the overall verdict, goes to the caller's MultiObserver as it is decided.
//
// The report has the reference's shape: per record schema[i] and reconcile[i]; cross-record
// "multi-step-rules-9-10" (every record's failures prefixed receipts[i]., then rules 9, 10, 17, 25,
// 26; skipped when any record fails its schema), "trace-identity" (warn) when record 0 has no
// trace_id, and "math-gate" when a record self-declares the Rule 14 skip; record_count;
// rules_evaluated / gated_off for the bundle.
#include <cstddef>
#include <string>

#include "common/expected.hpp"
#include "verify/multi_run.hpp"
#include "verify/report.hpp"
#include "verify/stream_error.hpp"

namespace verify {

// Largest single record (line) accepted, in bytes; a longer line stops the run after reading at
// most this much of it.
inline constexpr std::size_t kMaxRecordBytes = std::size_t{256} * 1024 * 1024;

struct MultiOptions {
  VerdictOptions verdict;
  // Threads that parse and check records (1: this thread alone, in turn). With more, records are
  // prepared out of order and folded in input order: the outcome, the observer's calls and their
  // order, and the error that stops a run are the same for any number of jobs. The observer is
  // only ever called from the thread that called verify_multi.
  std::size_t jobs = 1;
};

// Reads `fd` to its end (the caller opens and closes it); `name` ("<stdin>" or the path) is what
// errors call the input. Blank lines are skipped; no record at all is StreamFailure::no_records.
[[nodiscard]] common::Expected<MultiOutcome, StreamError> verify_multi(int fd, const std::string& name,
                                                                       const MultiOptions& options,
                                                                       MultiObserver* observer = nullptr);

}  // namespace verify
