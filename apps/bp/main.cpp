// bp: thin driver. Scans argv with the reference's grammar (argv_scan.hpp), then hands the
// words to the command table. The only code that picks an exit status is in apps/bp.
#include <string>
#include <vector>

#include "argv_scan.hpp"
#include "command_table.hpp"
#include "common/tool_main.hpp"
#include "terminal.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace bp::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  ScanResult scan = scan_argv(args);
  if (scan.error) {
    // The reference writes a bad --color value to stderr even under --json.
    report(*scan.error, scan.invocation.json && !scan.error_is_plain_stderr);
    return scan.error->exit_code;
  }
  return dispatch(scan.invocation);
}

}  // namespace

// Every command's product goes to stdout; if any of it was lost (a full disk, /dev/full, a
// closed descriptor) the run failed, whatever the command returned: one line, exit 2.
int main(int argc, char** argv) {
  return common::run_tool(argc, argv, run,
                          {.name = "bp", .oom_line = "bp: out of memory\n", .stdout_lost = "could not write to stdout",
                           .exit_io = bp::cli::kExitMalformedOrIo, .buffered_stdout = false,
                           .quiet_when_failed_already = false});
}
