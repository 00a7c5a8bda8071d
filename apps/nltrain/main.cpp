// nltrain: trains nested-learning models (memory rules in a MAG block). This file only
// dispatches; each command lives in cmd_<name>.cpp.
#include <string_view>
#include <vector>

#include "build_info/build_info.hpp"
#include "cli_support.hpp"
#include "commands.hpp"

namespace {

using namespace nltrain::cli;

int run(int argc, char** argv) {
  CLI::App app{"nltrain: train nested-learning models (memory rules in a MAG block) on bytes of text"};
  app.set_version_flag("--version", std::string(build_info::version()));
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok, 1 a check failed, 2 usage / I/O / malformed input, 3 a value out of its domain.\n"
             "See man nltrain.");
  std::vector<Registration> commands{add_train_command(app), add_gradcheck_command(app), add_init_command(app),
                                     add_grads_command(app), add_eval_command(app),      add_generate_command(app),
                                     add_plot_command(app),  add_export_command(app)};
  return cli_common::parse_and_run("nltrain", app, commands, argc, argv);
}

}  // namespace

int main(int argc, char** argv) { return cli_common::run_cli_tool(argc, argv, run, "nltrain", "nltrain: out of memory\n"); }
