// bp: thin driver. Scans argv with the reference's grammar (argv_scan.hpp), then hands the
// words to the command table. The only code that picks an exit status is in apps/bp.
#include <exception>
#include <string>
#include <vector>

#include "argv_scan.hpp"
#include "command_table.hpp"
#include "terminal.hpp"

int main(int argc, char** argv) {
  using namespace bp::cli;
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    ScanResult scan = scan_argv(args);
    if (scan.error) {
      // The reference writes a bad --color value to stderr even under --json.
      report(*scan.error, scan.invocation.json && !scan.error_is_plain_stderr);
      return scan.error->exit_code;
    }
    return dispatch(scan.invocation);
  } catch (const std::exception& e) {
    // Last resort (e.g. std::bad_alloc): one line, documented status 2.
    write_stderr(std::string("bp: internal error: ") + e.what() + "\n");
    return kExitUsageOrInput;
  }
}
