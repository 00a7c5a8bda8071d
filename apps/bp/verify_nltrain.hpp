#pragma once
// bp verify nltrain F|- [--data D] [--cross-machine]: opens the input and the --data file, runs
// the library's streaming gate (verify/nltrain.hpp over nl_audit/verify.hpp) and renders its
// verdict: the report and the exit status of bp's other verify modes.
#include <string>

#include "argv_scan.hpp"

namespace bp::cli {

[[nodiscard]] int verify_nltrain_file(const Invocation& inv, const std::string& file);
[[nodiscard]] std::string verify_nltrain_usage();

}  // namespace bp::cli
