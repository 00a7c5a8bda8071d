#pragma once
// bp's help screens (our wording; the command lines and exit codes match the reference).
#include <string>
#include <string_view>

namespace bp::cli {

[[nodiscard]] std::string top_usage();
[[nodiscard]] std::string generate_builtin_usage(std::string_view name);
[[nodiscard]] std::string generate_from_config_usage();
[[nodiscard]] std::string scaffold_topology_usage();
[[nodiscard]] std::string validate_usage();
[[nodiscard]] std::string validate_input_usage();
// Commands this build names but cannot run yet (verify, reconcile, import, examples).
[[nodiscard]] std::string unavailable_usage(std::string_view command_line);

}  // namespace bp::cli
