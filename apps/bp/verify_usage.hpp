#pragma once
// Help text of `bp reconcile receipt` and `bp verify mazur|general|multi` (stdout, exit 0; the
// same text on stderr, exit 2, when the file argument is missing).
#include <string>

namespace bp::cli {

[[nodiscard]] std::string reconcile_receipt_usage();
[[nodiscard]] std::string verify_mazur_usage();
[[nodiscard]] std::string verify_general_usage();
[[nodiscard]] std::string verify_multi_usage();
// `bp verify --help`: the three kinds.
[[nodiscard]] std::string verify_usage();

}  // namespace bp::cli
