// bp examples pytorch|jax [--print]: the live helpers are not bundled with this build.
#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "terminal.hpp"

namespace bp::cli {

int run_examples(const Invocation& inv) {
  const auto noun = word(inv, 1);
  const std::string usage = unavailable_usage("bp examples pytorch|jax [--print]");
  if (!noun) {
    (void)write_stdout(usage);  // usage on stdout, exit 2, as the reference does
    return kExitUsageOrInput;
  }
  if (is_help_word(inv, 1)) return print_help(usage);
  if (*noun == "pytorch" || *noun == "jax") {
    if (is_help_word(inv, 2)) return print_help(usage);
    return not_available(inv, "examples " + *noun);
  }
  return usage_error(inv, "unknown subcommand 'examples " + *noun +
                              "'. Ships 'examples pytorch' and 'examples jax'. Run 'bp examples --help' for usage.");
}

}  // namespace bp::cli
