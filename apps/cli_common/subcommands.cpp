#include "cli_common/subcommands.hpp"

#include <CLI/CLI.hpp>

#include "cli_common/exit_codes.hpp"

namespace cli_common {

int run_parsed(const std::vector<Registration>& commands) {
  for (const Registration& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  return kExitMalformedOrIo;
}

}  // namespace cli_common
