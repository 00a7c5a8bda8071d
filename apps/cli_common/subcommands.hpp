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
// exit 0; a first word that is no command is one line "<tool>: unknown command "w"; did you mean
// "c"? Commands: ..." and kExitMalformedOrIo; any other parse error is one line "<tool>: <what>[; did you mean --flag?] (see <tool>
// <command> --help)" and kExitMalformedOrIo.
[[nodiscard]] int parse_and_run(std::string_view tool, CLI::App& app, const std::vector<Registration>& commands,
                                int argc, char** argv);

// main() of a CLI11 tool (atenia, nltrain): common::run_tool's frame with buffered stdout, the
// suite's I/O exit status, and no second line after a failure the command reported itself.
// `oom_line` must be a string literal (it is written without allocating).
[[nodiscard]] int run_cli_tool(int argc, char** argv, int (*run)(int, char**), const char* name, const char* oom_line);

}  // namespace cli_common
