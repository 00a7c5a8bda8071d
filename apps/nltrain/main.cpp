// nltrain: trains nested-learning models (memory rules in a MAG block). This file only
// dispatches; each command lives in cmd_<name>.cpp.
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string_view>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "common/temp_file_cleanup.hpp"
#include "suggest.hpp"

namespace {

using namespace nltrain;

int run(int argc, char** argv) {
  CLI::App app{"nltrain: train nested-learning models (memory rules in a MAG block) on bytes of text"};
  app.set_version_flag("--version", std::string("nltrain 0.2.0"));
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
      if (auto s = suggest(given, names)) std::cerr << "; did you mean \"" << *s << "\"?";
      std::cerr << " (nltrain --help lists the commands)\n";
      return kExitMalformedOrIo;
    }
  }
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
}

int checked_stdout(int rc) {
  if (const int err = flush_stdout(); err != 0) {
    if (rc != kExitMalformedOrIo) std::cerr << "nltrain: cannot write to stdout: " << std::strerror(err) << "\n";
    return kExitMalformedOrIo;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  install_checked_stdout();
  common::install_temp_file_cleanup();
  common::install_out_of_memory_exit("nltrain: out of memory\n", kExitMalformedOrIo);
  try {
    return checked_stdout(run(argc, argv));
  } catch (const std::bad_alloc&) {
    std::cerr << "nltrain: out of memory\n";
    return kExitMalformedOrIo;
  } catch (const std::exception& e) {
    std::cerr << "nltrain: internal error: " << e.what() << "\n";
    return kExitMalformedOrIo;
  }
}
