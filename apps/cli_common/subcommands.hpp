#pragma once
// The subcommands of a CLI11-parsed tool (atenia, nltrain): each cmd_<name>.cpp adds its own to
// the app and returns what runs it once the command line is parsed.
#include <functional>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace cli_common {

using Runner = std::function<int()>;
struct Registration {
  CLI::App* app = nullptr;
  Runner run;
};

// Runs the subcommand the parse selected; kExitMalformedOrIo when none was.
[[nodiscard]] int run_parsed(const std::vector<Registration>& commands);

// Parses the command line, then runs the selected subcommand. --help and --version print and
// exit 0; any other parse error is one line "<tool>: <what>[; did you mean --flag?] (see <tool>
// <command> --help)" and kExitMalformedOrIo.
[[nodiscard]] int parse_and_run(std::string_view tool, CLI::App& app, const std::vector<Registration>& commands,
                                int argc, char** argv);

}  // namespace cli_common
