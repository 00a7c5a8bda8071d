#pragma once
// bp verify tensor F|- [--json]: opens the input, runs the library's streaming gate
// (verify/tensor.hpp over mlp_audit/verify.hpp) and renders its verdict with the exit status of
// bp's other verify modes.
#include <string>

#include "argv_scan.hpp"

namespace bp::cli {

[[nodiscard]] int verify_tensor_file(const Invocation& inv, const std::string& file);
[[nodiscard]] std::string verify_tensor_usage();

}  // namespace bp::cli
