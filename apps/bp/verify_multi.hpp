#pragma once
// `bp verify multi <file.jsonl|->`: opens the input, runs the library's streaming gate
// (verify/multi.hpp) with the report spooled as it goes (verify_multi_report.hpp), and turns a
// stream that could not be read into the reference's error (exit 2).
#include <string>
#include <variant>

#include "argv_scan.hpp"
#include "cli_error.hpp"
#include "verify/multi_run.hpp"

namespace bp::cli {

// Verifies `file` ("-" = stdin) and writes the report; returns the exit status.
[[nodiscard]] int verify_multi_file(const Invocation& inv, const std::string& file);

// The verdict alone (no report kept), for `bp verify general DIR` meeting a file of several records.
[[nodiscard]] std::variant<verify::MultiOutcome, CliError> verify_multi_verdict(const Invocation& inv,
                                                                               const std::string& file);

}  // namespace bp::cli
