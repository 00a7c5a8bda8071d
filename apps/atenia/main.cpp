// atenia: where tensors live and where kernels run (APX 13). This file only dispatches.
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace atenia::cli;
  try {
    if (argc >= 2 && std::string_view(argv[1]) == "explain") return run_explain(argc, argv);

    CLI::App app{"atenia: hybrid placement, offload, checkpoints and learned backend choices (APX 13)"};
    app.set_version_flag("--version", ATENIA_VERSION);
    app.require_subcommand(1);
    // Listed here for --help; the real parsing of `explain` happens in run_explain.
    app.add_subcommand("explain", "Explain the learned CPU/GPU choice for one context");
    std::vector<Registration> commands{add_profile_command(app),  add_place_command(app),
                                       add_simulate_command(app), add_learn_command(app),
                                       add_stats_command(app),    add_checkpoint_command(app)};
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      const int rc = app.exit(e);
      return rc == 0 ? kExitOk : kExitMalformedOrIo;
    }
    for (const Registration& c : commands) {
      if (c.app->parsed()) return c.run();
    }
    return kExitMalformedOrIo;
  } catch (const std::exception& e) {
    // Last resort: a bug or an allocation failure, never a silent crash.
    std::cerr << "atenia: internal error: " << e.what() << "\n";
    return kExitMalformedOrIo;
  }
}
