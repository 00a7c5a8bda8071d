#pragma once
// Where a command's product goes: stdout, or --out written atomically (temporary file,
// fsync, rename: a failed run leaves no partial file and keeps any previous content).
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "cli_error.hpp"
#include "common/file_system.hpp"

namespace bp::cli {

// Writes `bytes` to `out_path` atomically; the error is the reference's write-failure shape (exit 2).
[[nodiscard]] std::optional<CliError> write_out_file(const std::string& out_path, std::string_view bytes);
// The same for content produced by `write` in as many appends as it likes.
[[nodiscard]] std::optional<CliError> write_out_file(const std::string& out_path,
                                                     const std::function<common::Status(common::WritableFile&)>& write);

// The exit status for stdout that could not take a command's product (2). The failed write is
// remembered (common::stdout_write_error) and main prints the one line, with the system's
// reason, for every command alike: a command must not print its own line as well.
[[nodiscard]] int stdout_write_failed();

}  // namespace bp::cli
