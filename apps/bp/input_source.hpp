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

// `path_or_dash` opened for reading with read(2) ("-": stdin, checked to be piped): the
// descriptor, or ENOENT, EISDIR, EACCES, STDIN_IS_TTY, IO_ERROR. For the commands that stream
// their input instead of holding it (verify multi, import ... multi): no size limit.
[[nodiscard]] std::variant<int, CliError> open_input_fd(const std::string& path_or_dash);

// Closes a descriptor open_input_fd gave, unless it is stdin.
struct InputFd {
  int fd;
  explicit InputFd(int opened) : fd(opened) {}
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;
  ~InputFd();
};

// "<stdin>" for "-", else the path.
[[nodiscard]] std::string input_display_name(const std::string& path_or_dash);

// STDIN_IS_TTY when stdin is a terminal ('-' given but nothing piped in).
[[nodiscard]] std::optional<CliError> check_stdin_piped();

}  // namespace bp::cli
