#pragma once
// The subcommands of atenia; each lives in its cmd_<name>.cpp.
#include <CLI/CLI.hpp>

#include "cli_support.hpp"

namespace atenia::cli {

// `explain` keeps the seed's own contract (usage line on stderr, exit 1), so main hands it
// argv directly instead of registering it with the shared parser.
int run_explain(int argc, char** argv);

Registration add_learn_command(CLI::App& app);
Registration add_stats_command(CLI::App& app);
Registration add_profile_command(CLI::App& app);
Registration add_place_command(CLI::App& app);
Registration add_simulate_command(CLI::App& app);
Registration add_checkpoint_command(CLI::App& app);

}  // namespace atenia::cli
