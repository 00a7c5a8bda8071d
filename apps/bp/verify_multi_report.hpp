#pragma once
// The report of `bp verify multi`, the reference's shape: the overall verdict, then the spooled
// per-record entries and the cross-record checks (--json: one object on stdout; otherwise text on
// stderr). Returns the exit status.
#include "argv_scan.hpp"
#include "verify_multi_run.hpp"

namespace bp::cli {

[[nodiscard]] int write_multi_report(const Invocation& inv, MultiRun& run, const MultiRun::Outcome& outcome);

}  // namespace bp::cli
