#pragma once
// `verify general F1 F2 ... | DIR`: many receipts in one process, so CI can check a thousand at
// once. What is decided here: which files a directory contributes (its *.json and *.jsonl files,
// recursively, sorted by path), which gate a receipt gets (a v0.1.0 receipt the Mazur one, as
// `bp verify mazur FILE` would), and the summary over all of them. bp reads each file, renders a
// line per receipt and the summary (apps/bp/verify_batch.cpp); a file of several records is a
// bundle, verified as verify_multi does.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "verify/general.hpp"
#include "verify/report.hpp"

namespace verify {

struct ReceiptPaths {
  std::vector<std::string> files;
  std::optional<common::Error> error;  // the directory could not be listed (whole); `files` has what was seen
  // Entries of `files` a directory holds under a receipt's name that are no file bp can read (a
  // dangling or looping link, a FIFO, a socket, a device), and the links to directories and the
  // subdirectories that could not be listed, with why: reported, never opened (a FIFO would block
  // the run), never skipped (it may be the step that was meant to be verified).
  std::vector<std::pair<std::string, common::Error>> unreadable;
  [[nodiscard]] const common::Error* unreadable_reason(const std::string& file) const;
};

// The receipts an argument names: itself ("-" and anything that is not a directory), or a
// directory's receipt entries in path order, walked recursively; a symbolic link to a directory
// (not followed) and a subdirectory that cannot be listed are `unreadable` entries, never skipped.
[[nodiscard]] ReceiptPaths receipt_paths(const std::string& arg);

// Whether verify_receipt gives `receipt` the Mazur gate (schema_version "0.1.0"), which reads the
// Mazur fixtures: a caller loads them only when some receipt needs them.
[[nodiscard]] bool gets_mazur_gate(const nlohmann::ordered_json& receipt);
[[nodiscard]] bool gets_mazur_gate(common::JsonView receipt);

// The gate a receipt gets in a batch: verify_mazur for schema_version "0.1.0", else verify_general
// (given `text`, the text the receipt was parsed from, when known).
[[nodiscard]] VerifyReport verify_receipt(const nlohmann::ordered_json& receipt, const GeneralOptions& general,
                                          const MazurFixtures& fixtures, std::string_view text = {});
// The same for a receipt read as a JsonDocument (both gates build a tree only of a receipt their
// schema accepts).
[[nodiscard]] VerifyReport verify_receipt(common::JsonDocument&& receipt, const GeneralOptions& general,
                                          const MazurFixtures& fixtures);

// The summary line of a batch: how many receipts passed, passed with warnings, failed, or could
// not be read.
struct BatchTally {
  std::size_t receipts = 0, passed = 0, warned = 0, failed = 0, errors = 0;

  // Counts a verdict ("pass" | "warn" | "fail") and returns the status its line shows.
  CheckStatus add_verdict(std::string_view overall);
  void add_error();
  // No receipt failed and every one could be read.
  [[nodiscard]] bool ok() const { return failed == 0 && errors == 0; }
};

}  // namespace verify
