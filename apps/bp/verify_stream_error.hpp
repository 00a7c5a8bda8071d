#pragma once
// How bp's streaming verify modes over tensor-step receipts (verify nltrain, verify tensor) turn
// the library's reason for stopping into a CLI error: exit 3 when the reader says the input does
// not fit an argument (nltrain's --data), else 2.
#include <string>

#include "cli_error.hpp"
#include "verify/stream_error.hpp"

namespace bp::cli {

[[nodiscard]] CliError cli_error(int exit_code, std::string code, std::string message);
[[nodiscard]] CliError tensor_step_stream_error(const verify::StreamError& e);

}  // namespace bp::cli
