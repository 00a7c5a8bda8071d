#include "command_table.hpp"

#include "command_support.hpp"
#include "help_text.hpp"
#include "suggest.hpp"
#include "terminal.hpp"

#include "build_info/build_info.hpp"

namespace bp::cli {

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"reconcile", true, run_reconcile},    {"verify", true, run_verify},
      {"generate", true, run_generate},      {"validate", true, run_validate},
      {"scaffold", true, run_scaffold},      {"validate-input", true, run_validate_input},
      {"import", true, run_import},         {"examples", false, run_examples},
  };
  return table;
}

int dispatch(const Invocation& inv) {
  const auto first = word(inv, 0);
  if (first && (*first == "--version" || *first == "-v")) {
    (void)write_stdout(std::string(build_info::version()) + "\n");
    return kExitOk;
  }
  if (!first || *first == "--help" || *first == "-h") return print_help(top_usage());
  for (const auto& c : command_table()) {
    if (c.verb == *first) return c.run(inv);
  }
  if (auto suggestion = suggest_command(*first)) {
    return usage_error(inv, "unknown command '" + *first + "'. Did you mean '" + *suggestion +
                                "'? Run 'bp --help' for usage.");
  }
  if (inv.json) return usage_error(inv, "unknown command '" + *first + "'. Run 'bp --help' for usage.");
  write_stderr("bp: unknown command '" + *first + "'. Run 'bp --help' for usage.\n\n" + top_usage());
  return kExitMalformedOrIo;
}

}  // namespace bp::cli
