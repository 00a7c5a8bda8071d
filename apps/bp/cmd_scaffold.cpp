// bp scaffold topology --topology mazur|xor|iris [--out F]
#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "suggest.hpp"

namespace bp::cli {

int run_scaffold(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'scaffold'. Did you mean 'bp scaffold topology --topology "
                            "mazur|xor|iris'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 1)) return print_help(scaffold_topology_usage());
  if (*noun != "topology") {
    const auto suggestion = suggest_subnoun(
        *noun, {{"topology", "bp scaffold topology --topology mazur|xor|iris [--out <file>]"}});
    if (suggestion) {
      return usage_error(inv, "unknown subcommand 'scaffold " + *noun + "'. Did you mean '" +
                                  std::string(*suggestion) + "'? Run 'bp --help' for usage.");
    }
    return usage_error(inv, "unknown subcommand 'scaffold " + *noun + "'. Expected 'topology'. Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 2)) return print_help(scaffold_topology_usage());
  if (!inv.topology) {
    CliError e;
    e.exit_code = kExitBadArgument;
    e.code = "MISSING_TOPOLOGY_ARG";
    e.message = "scaffold topology requires --topology <name>. Expected one of: mazur, xor, iris. Run 'bp scaffold "
                "topology --help' for usage.";
    return fail(inv, e);
  }
  if (*inv.topology != "mazur" && *inv.topology != "xor" && *inv.topology != "iris") {
    CliError e;
    e.exit_code = kExitBadArgument;
    e.code = "INVALID_TOPOLOGY_ARG";
    e.message = "unknown topology '" + *inv.topology + "'. Expected one of: mazur, xor, iris.";
    return fail(inv, e);
  }
  // Waiting for a JSON.stringify(value, null, 2)-compatible printer in libcore (bp(1) BUGS).
  return not_available(inv, "scaffold topology");
}

}  // namespace bp::cli
