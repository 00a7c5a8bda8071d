#include "common/tool_main.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "common/blas_server.hpp"
#include "common/checked_stdout.hpp"
#include "common/temp_file_cleanup.hpp"

namespace common {
namespace {

// Whatever a command printed must have reached stdout: a lost write (a full disk, /dev/full,
// a closed descriptor) is one line on stderr and exit_io, not a silent success.
int checked_stdout(int rc, const ToolFrame& frame) {
  const int err = flush_stdout();
  if (err == 0) return rc;
  if (!(frame.quiet_when_failed_already && rc == frame.exit_io)) {
    write_stderr(std::string(frame.name) + ": " + frame.stdout_lost + ": " + std::strerror(err) + "\n");
  }
  return frame.exit_io;
}

// A tool started with descriptor 0, 1 or 2 closed would hand that number to the next file it
// opens (a lock, a checkpoint), and output meant for stdout would land in that file. Each closed
// one is filled with /dev/null opened the wrong way round (stdin write-only, stdout and stderr
// read-only), so the slot is taken and every read or write on it still fails with EBADF, as on
// a closed descriptor: "could not write to stdout" is still reported.
void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // Not close-on-exec: a child process inherits the taken slot too.
    const int got = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (got == -1 || got == fd) continue;
    // Lower descriptors were open, so the lowest free one should have been fd; never leave it.
    (void)::dup2(got, fd);
    (void)::close(got);
  }
}

}  // namespace

int run_tool(int argc, char** argv, int (*run)(int, char**), const ToolFrame& frame) {
  reserve_standard_descriptors();
  (void)end_idle_blas_threads();  // CPU only: a product's bits do not depend on it
  if (frame.buffered_stdout) install_checked_stdout();
  install_temp_file_cleanup();
  install_out_of_memory_exit(frame.oom_line, frame.exit_io);
  try {
    return checked_stdout(run(argc, argv), frame);
  } catch (const std::bad_alloc&) {
    write_stderr(frame.oom_line);
    return frame.exit_io;
  } catch (const std::exception& e) {
    // Last resort: a bug, never a silent crash.
    write_stderr(std::string(frame.name) + ": internal error: " + e.what() + "\n");
    return frame.exit_io;
  }
}

}  // namespace common
