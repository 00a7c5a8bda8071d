#pragma once
// --jobs N for the commands that read a stream of records on N threads (bp verify multi, bp
// import <framework> multi): 1 <= N <= kMaxJobs; by default the cores available, at most
// kMaxDefaultJobs.
#include <cstddef>
#include <string>
#include <variant>

#include "argv_scan.hpp"
#include "cli_error.hpp"

namespace bp::cli {

// More threads than this gain nothing by default: the in-order fold is one thread's work.
inline constexpr std::size_t kMaxDefaultJobs = 8;
inline constexpr std::size_t kMaxJobs = 256;

// `command` names the command in the refusal ("bp verify multi"); an invalid N is exit 3.
[[nodiscard]] std::variant<std::size_t, CliError> jobs_option(const Invocation& inv, const std::string& command);

}  // namespace bp::cli
