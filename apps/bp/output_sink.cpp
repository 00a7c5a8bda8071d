#include "output_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "terminal.hpp"

namespace bp::cli {

namespace {

CliError write_error(const std::string& out_path, const std::string& why) {
  CliError e;
  e.code = "IO_ERROR";
  e.message = "could not write " + out_path + ": " + why;
  e.hint = "check that the directory exists and is writable.";
  e.retryable = false;
  return e;
}

// A device, FIFO or socket (/dev/null, /dev/full, a named pipe) is written in place: renaming a
// temporary file over it would replace the device node with a regular file.
std::optional<CliError> write_in_place(const std::string& out_path, std::string_view bytes) {
  const int fd = ::open(out_path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return write_error(out_path, std::strerror(errno));
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      return write_error(out_path, std::strerror(err));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) return write_error(out_path, std::strerror(errno));
  return std::nullopt;
}

}  // namespace

std::optional<CliError> write_out_file(const std::string& out_path, std::string_view bytes) {
  common::FileSystem& fs = common::real_file_system();
  struct stat st {};
  if (::stat(out_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    return write_in_place(out_path, bytes);
  }
  if (fs.is_dir(out_path)) {
    CliError e;
    e.code = "EISDIR";
    e.message = "path is a directory, not a file: " + out_path + ".";
    e.hint = "provide a file path.";
    e.retryable = false;
    return e;
  }
  if (auto st = common::write_file_atomic(fs, out_path, bytes); !st) {
    CliError e;
    e.code = "IO_ERROR";
    e.message = "could not write " + out_path + ": " + st.error().message();
    e.hint = "check that the directory exists and is writable.";
    e.retryable = false;
    return e;
  }
  return std::nullopt;
}

std::optional<CliError> write_to_stdout(std::string_view bytes) {
  if (write_stdout(bytes)) return std::nullopt;
  CliError e;
  e.code = "IO_ERROR";
  e.message = "could not write to stdout";
  e.retryable = false;
  return e;
}

}  // namespace bp::cli
