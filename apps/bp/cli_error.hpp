#pragma once
// What a bp command reports when it stops early: the reference's "Tier-1" error shape
// ({ok:false, error:{code, message, hint?, cause?, retryable?}} under --json, otherwise
// "bp: <message>" and "Hint: <hint>" on stderr) plus the process exit status.
#include <optional>
#include <string>

#include "cli_common/exit_codes.hpp"
#include "common/error.hpp"

namespace bp::cli {

// Exit statuses of every bp command (bp(1) EXIT STATUS): the suite's one table.
using cli_common::kExitFailure;
using cli_common::kExitInvalidArgument;
using cli_common::kExitMalformedOrIo;
using cli_common::kExitNotInstalled;
using cli_common::kExitOk;

struct CliError {
  int exit_code = kExitMalformedOrIo;
  std::string code;  // machine-readable, e.g. "ENOENT", "INVALID_FLAG"
  std::string message;
  std::optional<std::string> hint;
  std::optional<std::string> cause;
  std::optional<bool> retryable;
};

// Writes `e` the way --json asks (envelope on stdout) or as human text on stderr.
void report(const CliError& e, bool json_mode);

// The envelope line (with "\n") for --json mode.
[[nodiscard]] std::string json_envelope(const CliError& e);

// The one place a library error becomes a CLI error: cli_common::exit_code_for (invalid_argument
// -> 3, the rest 2). `code` names the failure for --json.
[[nodiscard]] CliError from_library_error(const common::Error& e, std::string code);

}  // namespace bp::cli
