#include "terminal.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace bp::cli {
namespace {

int g_stdout_error = 0;

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

bool write_stdout(std::string_view bytes) {
  if (write_all(STDOUT_FILENO, bytes)) return true;
  if (g_stdout_error == 0) g_stdout_error = errno != 0 ? errno : EIO;
  return false;
}

int stdout_write_error() { return g_stdout_error; }
bool write_stderr(std::string_view bytes) { return write_all(STDERR_FILENO, bytes); }

bool use_color(int fd, ColorChoice choice, bool json_mode) {
  if (json_mode) return false;
  if (choice == ColorChoice::always) return true;
  if (choice == ColorChoice::never) return false;
  if (std::getenv("NO_COLOR") != nullptr) return false;
  return ::isatty(fd) == 1;
}

std::string_view sgr_red() { return "\x1b[31m"; }
std::string_view sgr_bold_red() { return "\x1b[1m\x1b[31m"; }
std::string_view sgr_green() { return "\x1b[32m"; }
std::string_view sgr_reset() { return "\x1b[0m"; }

}  // namespace bp::cli
