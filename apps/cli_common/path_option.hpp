#pragma once
// File and directory options of atenia and nltrain. An empty value is refused when the command
// line is parsed (a usage error, exit 2, naming the option): given as --out '' it would otherwise
// read as "not given" and fall back to a default (nltrain train wrote into nltrain-run), or reach
// a rename(2) of "" whose message names no option.
#include <string>

#include "cli_common/cli11_fwd.hpp"

namespace cli_common {

CLI::Option* add_path_option(CLI::App* cmd, const std::string& name, std::string& out, const std::string& help);

}  // namespace cli_common
