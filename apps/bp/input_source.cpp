#include "input_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace bp::cli {
namespace {

CliError too_large(const std::string& name, std::size_t max_bytes) {
  CliError e;
  e.code = "INPUT_TOO_LARGE";
  e.message = "input too large to read: " + name + ". The limit is " + std::to_string(max_bytes) + " bytes.";
  e.hint = "split the input into smaller files.";
  e.retryable = false;
  return e;
}

CliError simple(std::string code, std::string message, std::string hint) {
  CliError e;
  e.code = std::move(code);
  e.message = std::move(message);
  e.hint = std::move(hint);
  e.retryable = false;
  return e;
}

std::variant<InputText, CliError> read_stdin(std::size_t max_bytes) {
  if (auto e = check_stdin_piped()) return *e;
  InputText in{"<stdin>", {}};
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      CliError e = simple("IO_ERROR", "could not read <stdin>: read failed",
                          "verify the path is a readable file; if this persists, the file or filesystem may be "
                          "damaged.");
      return e;
    }
    if (n == 0) break;
    if (in.text.size() + static_cast<std::size_t>(n) > max_bytes) return too_large("<stdin>", max_bytes);
    in.text.append(buf, static_cast<std::size_t>(n));
  }
  return in;
}

}  // namespace

std::optional<CliError> check_stdin_piped() {
  if (::isatty(STDIN_FILENO) != 1) return std::nullopt;
  return simple("STDIN_IS_TTY",
                "no data on stdin: the '-' argument means 'read from stdin', but stdin is a terminal "
                "(nothing is piped in).",
                "pipe a receipt in, e.g. `cat receipt.jsonl | bp ... -` or `echo '{...}' | bp ... -`; or pass "
                "a file path instead of '-'.");
}

std::optional<CliError> check_input_path(const std::string& path) {
  common::FileSystem& fs = common::real_file_system();
  if (!fs.exists(path)) {
    return simple("ENOENT", "file not found: " + path + ".", "check the path.");
  }
  if (fs.is_dir(path)) {
    return simple("EISDIR", "path is a directory, not a file: " + path + ".", "provide a file path.");
  }
  if (::access(path.c_str(), R_OK) != 0 && errno == EACCES) {
    return simple("EACCES", "permission denied: " + path + ".", "check file permissions.");
  }
  return std::nullopt;
}

std::variant<std::string, CliError> read_file_text(const std::string& path, std::size_t max_bytes) {
  // One open: the reason for a failure comes from it, not from checks made before it.
  auto text = common::real_file_system().read_file(path, max_bytes);
  if (text) return std::move(text.value());
  switch (text.error().reason) {
    case common::ReadFailure::not_found:
      return simple("ENOENT", "file not found: " + path + ".", "check the path.");
    case common::ReadFailure::is_directory:
      return simple("EISDIR", "path is a directory, not a file: " + path + ".", "provide a file path.");
    case common::ReadFailure::permission_denied:
      return simple("EACCES", "permission denied: " + path + ".", "check file permissions.");
    case common::ReadFailure::too_large: return too_large(path, max_bytes);
    case common::ReadFailure::unreadable: break;
  }
  return simple("IO_ERROR", "could not read " + path + ": " + text.error().error.message(),
                "verify the path is a readable file; if this persists, the file or filesystem may be damaged.");
}

std::variant<int, CliError> open_input_fd(const std::string& path_or_dash) {
  if (path_or_dash == "-") {
    if (auto e = check_stdin_piped()) return *e;
    return STDIN_FILENO;
  }
  if (auto e = check_input_path(path_or_dash)) return *e;
  const int fd = ::open(path_or_dash.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return simple("IO_ERROR", "could not read " + path_or_dash + ": " + std::strerror(errno),
                  "verify the path is a readable file; if this persists, the file or filesystem may be damaged.");
  }
  return fd;
}

InputFd::~InputFd() {
  if (fd != STDIN_FILENO) ::close(fd);
}

std::string input_display_name(const std::string& path_or_dash) { return path_or_dash == "-" ? "<stdin>" : path_or_dash; }

std::variant<InputText, CliError> read_input(const std::string& path_or_dash) {
  if (path_or_dash == "-") return read_stdin(common::kMaxJsonInputBytes);
  auto text = read_file_text(path_or_dash, common::kMaxJsonInputBytes);
  if (auto* e = std::get_if<CliError>(&text)) return *e;
  return InputText{path_or_dash, std::move(std::get<std::string>(text))};
}

}  // namespace bp::cli
