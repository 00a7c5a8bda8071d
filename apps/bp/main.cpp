// bp: thin driver. Scans argv with the reference's grammar (argv_scan.hpp), then hands the
// words to the command table. The only code that picks an exit status is in apps/bp.
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "argv_scan.hpp"
#include "command_table.hpp"
#include "common/temp_file_cleanup.hpp"
#include "terminal.hpp"

namespace {

// Every command's product goes to stdout; if any of it was lost (a full disk, /dev/full, a
// closed descriptor) the run failed, whatever the command returned: one line, exit 2.
int checked_stdout(int rc) {
  using namespace bp::cli;
  if (const int err = stdout_write_error(); err != 0) {
    write_stderr(std::string("bp: could not write to stdout: ") + std::strerror(err) + "\n");
    return kExitUsageOrInput;
  }
  return rc;
}

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

int main(int argc, char** argv) {
  using namespace bp::cli;
  common::install_temp_file_cleanup();
  common::install_out_of_memory_exit("bp: out of memory\n", bp::cli::kExitUsageOrInput);
  try {
    return checked_stdout(run(argc, argv));
  } catch (const std::bad_alloc&) {
    write_stderr("bp: out of memory\n");
    return kExitUsageOrInput;
  } catch (const std::exception& e) {
    // Last resort (e.g. std::bad_alloc): one line, documented status 2.
    write_stderr(std::string("bp: internal error: ") + e.what() + "\n");
    return kExitUsageOrInput;
  }
}
