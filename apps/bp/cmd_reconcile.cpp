// bp reconcile receipt <file>: named for the reconciler's issue; the grammar is checked here.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"

namespace bp::cli {

int run_reconcile(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'reconcile'. Did you mean 'bp reconcile receipt <file>'? Run 'bp "
                            "--help' for usage.");
  }
  const std::string usage = unavailable_usage("bp reconcile receipt <file> [--json] [--verbose]");
  if (is_help_word(inv, 1)) return print_help(usage);
  if (*noun != "receipt") {
    return usage_error(inv, "unknown subcommand 'reconcile " + *noun +
                                "'. Did you mean 'bp reconcile receipt <file>'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 2)) return print_help(usage);
  // The reference answers a flag-shaped file name here with exit 2, not 3.
  auto file = file_argument(inv, 2, {"reconcile receipt", "<file>", usage, true, kExitUsageOrInput});
  if (auto* code = std::get_if<int>(&file)) return *code;
  return not_available(inv, "reconcile receipt");
}

}  // namespace bp::cli
