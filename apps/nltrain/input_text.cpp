#include "input_text.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "common/file_system.hpp"

namespace nltrain::cli {

std::string input_name(std::string_view path) { return path == "-" ? "<stdin>" : std::string(path); }

common::Result<std::string> read_input(const std::string& path, std::size_t max_bytes) {
  if (path != "-") {
    auto text = common::read_text(common::real_file_system(), path, max_bytes);
    if (!text.ok()) return text.error().at_file(path);
    return text;
  }
  // read(2) on fd 0 directly: std::cin would buffer and hide the errno of a failed read.
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return common::Error::io(std::string("<stdin>: cannot read: ") + std::strerror(errno));
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      return common::Error::io("<stdin>: more than " + std::to_string(max_bytes) + " bytes; refused");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace nltrain::cli
