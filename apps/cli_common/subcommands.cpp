#include "cli_common/subcommands.hpp"

#include <algorithm>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common/exit_codes.hpp"
#include "cli_common/nearest_name.hpp"
#include "common/error.hpp"
#include "common/tool_main.hpp"

namespace cli_common {
namespace {

// For an unknown --flag of `sub`: "; did you mean --nearest?", or nothing.
std::string flag_hint(const CLI::App& sub, int argc, char** argv) {
  std::vector<std::string> flags;
  for (const CLI::Option* opt : sub.get_options()) {
    for (const std::string& n : opt->get_lnames()) flags.push_back("--" + n);
  }
  const std::vector<std::string_view> views(flags.begin(), flags.end());
  for (int i = 2; i < argc; ++i) {
    std::string_view a = argv[i];
    if (!a.starts_with("--")) continue;
    a = a.substr(0, a.find('='));
    if (std::find(views.begin(), views.end(), a) != views.end()) continue;
    if (auto s = nearest_name(a, views)) return "; did you mean " + std::string(*s) + "?";
  }
  return {};
}

// A first word that names no subcommand: one line with the nearest one and the list instead of
// CLI11's generic message. False when argv[1] is an option or a known command.
bool unknown_command(std::string_view tool, const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  const std::string_view given = argv[1];
  if (std::find(names.begin(), names.end(), given) != names.end()) return false;
  const std::vector<std::string_view> views(names.begin(), names.end());
  std::string list;
  for (std::string_view n : views) list += (list.empty() ? "" : ", ") + std::string(n);
  std::cerr << tool << ": unknown command \"" << common::excerpt(given) << "\"";
  const auto best = nearest_name(given, views);
  if (best) std::cerr << "; did you mean \"" << *best << "\"?";
  std::cerr << (best ? "" : ".") << " Commands: " << list << " (" << tool << " --help)\n";
  return true;
}

}  // namespace

int run_parsed(const std::vector<Registration>& commands) {
  for (const Registration& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  return kExitMalformedOrIo;
}

int parse_and_run(std::string_view tool, CLI::App& app, const std::vector<Registration>& commands, int argc,
                  char** argv) {
  if (unknown_command(tool, app, argc, argv)) return kExitMalformedOrIo;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line, the suite's exit status, and the nearest option for a mistyped flag; CLI11's own
    // report is two lines and says nothing of the intended flag.
    std::string line = e.what();
    std::replace(line.begin(), line.end(), '\n', ' ');
    const CLI::App* sub = nullptr;
    for (const Registration& c : commands) {
      if (argc >= 2 && c.app->get_name() == argv[1]) sub = c.app;
    }
    const std::string hint =
        sub != nullptr && dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr ? flag_hint(*sub, argc, argv) : "";
    std::cerr << tool << ": " << common::excerpt(line, 400) << hint << " (see " << tool << " "
              << (sub != nullptr ? sub->get_name() + " " : std::string()) << "--help)\n";
    return kExitMalformedOrIo;
  }
  return run_parsed(commands);
}

int run_cli_tool(int argc, char** argv, int (*run)(int, char**), const char* name, const char* oom_line) {
  return common::run_tool(argc, argv, run,
                          {.name = name, .oom_line = oom_line, .stdout_lost = "cannot write to stdout",
                           .exit_io = kExitMalformedOrIo, .buffered_stdout = true, .quiet_when_failed_already = true});
}

}  // namespace cli_common
