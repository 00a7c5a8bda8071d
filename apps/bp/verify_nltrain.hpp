#pragma once
// bp verify nltrain F|- [--data D] [--cross-machine]: nltrain's step receipts through the
// library verifier (nl_audit/verify.hpp), streamed one line at a time; the report and the exit
// status of bp's other verify modes.
#include <string>

#include "argv_scan.hpp"

namespace bp::cli {

[[nodiscard]] int verify_nltrain_file(const Invocation& inv, const std::string& file);
[[nodiscard]] std::string verify_nltrain_usage();

}  // namespace bp::cli
