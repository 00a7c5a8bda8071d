#include "common/tool_main.hpp"

#include <cstring>
#include <exception>
#include <new>
#include <string>

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

}  // namespace

int run_tool(int argc, char** argv, int (*run)(int, char**), const ToolFrame& frame) {
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
