#pragma once
// Where a command's product goes: stdout, or --out written atomically (temporary file,
// fsync, rename: a failed run leaves no partial file and keeps any previous content).
#include <optional>
#include <string>
#include <string_view>

#include "cli_error.hpp"

namespace bp::cli {

// Writes `bytes` to `out_path` atomically; the error is the reference's write-failure shape (exit 2).
[[nodiscard]] std::optional<CliError> write_out_file(const std::string& out_path, std::string_view bytes);

// Writes all of `bytes` to stdout; an error when stdout is closed or full.
[[nodiscard]] std::optional<CliError> write_to_stdout(std::string_view bytes);

}  // namespace bp::cli
