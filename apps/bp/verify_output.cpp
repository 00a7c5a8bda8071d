#include "verify_output.hpp"

#include <unistd.h>

#include "cli_error.hpp"
#include "terminal.hpp"
#include "verify_report.hpp"

namespace bp::cli {

int emit_verify_report(const Invocation& inv, const verify::VerifyReport& report) {
  if (inv.json) {
    if (!write_stdout(report_envelope(report))) return stdout_write_failed();
  } else {
    // A report stderr did not take (closed, full) is a lost verdict: exit 2, as for stdout.
    if (!write_stderr(render_report(report, use_color(STDERR_FILENO, inv.color, false), inv.verbose))) return kExitMalformedOrIo;
  }
  return report.failed() ? kExitFailure : kExitOk;
}

}  // namespace bp::cli
