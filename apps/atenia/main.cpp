// atenia: where tensors live and where kernels run (APX 13). This file only dispatches.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "build_info/build_info.hpp"
#include "commands.hpp"
#include "cli_common/nearest_name.hpp"
#include "common/tool_main.hpp"

namespace {

using namespace atenia::cli;

constexpr std::string_view kSubcommands[] = {"profile", "place", "simulate", "learn", "stats", "checkpoint", "explain"};

// A first word that is no subcommand: name it, the nearest subcommand, and the list.
int unknown_subcommand(std::string_view word) {
  const auto best = cli_common::nearest_name(word, kSubcommands);
  std::cerr << "atenia: unknown subcommand \"" << word.substr(0, 64) << "\"";
  if (best) std::cerr << "; did you mean \"" << *best << "\"?";
  std::cerr << (best ? "" : ".") << " Subcommands: profile, place, simulate, learn, stats, checkpoint, explain (atenia --help)\n";
  return kExitMalformedOrIo;
}

int run(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "explain") return run_explain(argc, argv);
  if (argc >= 2 && argv[1][0] != '-' &&
      std::find(std::begin(kSubcommands), std::end(kSubcommands), std::string_view(argv[1])) == std::end(kSubcommands)) {
    return unknown_subcommand(argv[1]);
  }

  CLI::App app{"atenia: hybrid placement, offload, checkpoints and learned backend choices (APX 13)"};
  app.set_version_flag("--version", std::string(build_info::version()));
  app.require_subcommand(1);
  // Listed here for --help; the real parsing of `explain` happens in run_explain.
  app.add_subcommand("explain", "Explain the learned CPU/GPU choice for one context");
  std::vector<Registration> commands{add_profile_command(app),  add_place_command(app),
                                     add_simulate_command(app), add_learn_command(app),
                                     add_stats_command(app),    add_checkpoint_command(app)};
  return cli_common::parse_and_run("atenia", app, commands, argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  return common::run_tool(argc, argv, run,
                          {.name = "atenia", .oom_line = "atenia: out of memory\n", .stdout_lost = "cannot write to stdout",
                           .exit_io = kExitMalformedOrIo, .buffered_stdout = true, .quiet_when_failed_already = true});
}
