#pragma once
// The subcommands of a CLI11-parsed tool (atenia, nltrain): each cmd_<name>.cpp adds its own to
// the app and returns what runs it once the command line is parsed.
#include <functional>
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

}  // namespace cli_common
