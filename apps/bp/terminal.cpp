#include "terminal.hpp"

#include <unistd.h>

#include <cstdlib>

#include "common/checked_stdout.hpp"

namespace bp::cli {

bool write_stdout(std::string_view bytes) { return common::write_stdout(bytes); }
int stdout_write_error() { return common::stdout_write_error(); }

bool write_stderr(std::string_view bytes) { return common::write_stderr(bytes); }

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
