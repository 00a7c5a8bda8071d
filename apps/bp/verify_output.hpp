#pragma once
// Writing one verify report where the reference writes it (--json: stdout; otherwise stderr) and
// turning it into the exit status. A report that cannot be written to stdout is exit 2.
#include "argv_scan.hpp"
#include "output_sink.hpp"
#include "verify/report.hpp"

namespace bp::cli {

[[nodiscard]] int emit_verify_report(const Invocation& inv, const verify::VerifyReport& report);

}  // namespace bp::cli
