// nltrain: trains nested-learning models (memory rules in a MAG block). This file only
// dispatches; each command lives in cmd_<name>.cpp.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "build_info/build_info.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "common/tool_main.hpp"
#include "cli_common/nearest_name.hpp"

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
                                     add_plot_command(app)};
  // A mistyped command: name the nearest one instead of CLI11's generic message.
  if (argc >= 2 && argv[1][0] != '-') {
    std::vector<std::string_view> names;
    for (const Registration& c : commands) names.push_back(c.app->get_name());
    const std::string_view given = argv[1];
    bool known = false;
    for (std::string_view n : names) known = known || n == given;
    if (!known) {
      std::cerr << "nltrain: unknown command \"" << common::excerpt(given) << "\"";
      if (auto s = cli_common::nearest_name(given, names)) std::cerr << "; did you mean \"" << *s << "\"?";
      std::cerr << " (nltrain --help lists the commands)\n";
      return kExitMalformedOrIo;
    }
  }
  return cli_common::parse_and_run("nltrain", app, commands, argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  return common::run_tool(argc, argv, run,
                          {.name = "nltrain", .oom_line = "nltrain: out of memory\n", .stdout_lost = "cannot write to stdout",
                           .exit_io = kExitMalformedOrIo, .buffered_stdout = true, .quiet_when_failed_already = true});
}
