// atenia: where tensors live and where kernels run (APX 13). This file only dispatches.
#include <string_view>
#include <vector>

#include "build_info/build_info.hpp"
#include "commands.hpp"

namespace {

using namespace atenia::cli;

int run(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "explain") return run_explain(argc, argv);

  CLI::App app{"atenia: hybrid placement, offload, checkpoints and learned backend choices (APX 13)"};
  app.set_version_flag("--version", std::string(build_info::version()));
  app.require_subcommand(1);
  std::vector<Registration> commands{add_profile_command(app),  add_place_command(app),
                                     add_simulate_command(app), add_learn_command(app),
                                     add_stats_command(app),    add_checkpoint_command(app)};
  // Listed here for --help; the real parsing of `explain` happens in run_explain.
  app.add_subcommand("explain", "Explain the learned CPU/GPU choice for one context");
  return cli_common::parse_and_run("atenia", app, commands, argc, argv);
}

}  // namespace

int main(int argc, char** argv) { return cli_common::run_cli_tool(argc, argv, run, "atenia", "atenia: out of memory\n"); }
