#pragma once
// Reading a command's input: a file path, or "-" for stdin. Failures come back as the
// reference's CliErrors (ENOENT, EACCES, EISDIR, INPUT_TOO_LARGE, STDIN_IS_TTY, IO_ERROR),
// all exit 2. Inputs are capped at common::kMaxJsonInputBytes (bp(1) LIMITS).
#include <optional>
#include <string>
#include <variant>

#include "cli_error.hpp"

namespace bp::cli {

struct InputText {
  std::string name;  // the path, or "<stdin>"
  std::string text;
};

[[nodiscard]] std::variant<InputText, CliError> read_input(const std::string& path_or_dash);

// The read-error mapping, shared with `--check` golden reads.
[[nodiscard]] std::variant<std::string, CliError> read_file_text(const std::string& path, std::size_t max_bytes);

// The checks made before a file is opened (ENOENT, EISDIR, EACCES); nullopt when it may be read.
[[nodiscard]] std::optional<CliError> check_input_path(const std::string& path);

// STDIN_IS_TTY when stdin is a terminal ('-' given but nothing piped in).
[[nodiscard]] std::optional<CliError> check_stdin_piped();

}  // namespace bp::cli
