// bp import <framework> [multi] <sidecar>: named for the importers' issue; the grammar is
// checked here. Frameworks are named explicitly, never detected from file contents.
#include <array>
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "terminal.hpp"

namespace bp::cli {

int run_import(const Invocation& inv) {
  const auto framework = word(inv, 1);
  const std::string overview = unavailable_usage("bp import pytorch|jax|tensorflow [multi] <sidecar.jsonl> [--out <file>]");
  if (!framework) {
    (void)write_stdout(overview);  // the reference prints usage on stdout and exits 2 here
    return kExitUsageOrInput;
  }
  if (is_help_word(inv, 1)) return print_help(overview);
  constexpr std::array<std::string_view, 3> kFrameworks = {"pytorch", "jax", "tensorflow"};
  bool known = false;
  for (auto f : kFrameworks) known = known || f == *framework;
  if (!known) {
    CliError e;
    e.code = "UNKNOWN_FRAMEWORK";
    e.message = "unknown framework '" + *framework +
                "' for 'bp import'. Known: pytorch, jax, tensorflow. bp does NOT auto-detect framework from file "
                "contents — name it explicitly. Run 'bp import --help' for the current import surface.";
    return fail(inv, e);
  }
  const bool multi = word(inv, 2) == std::optional<std::string>("multi");
  const std::string command = "import " + *framework + (multi ? " multi" : "");
  const std::string placeholder = multi ? "<sidecar.jsonl>" : "<sidecar-file>";
  const std::string usage = unavailable_usage("bp " + command + " <sidecar.jsonl> [--out <file>] [--json]");
  const std::size_t file_index = multi ? 3 : 2;
  // Missing file first, then --help, as the reference orders them.
  if (!word(inv, file_index) || word(inv, file_index)->empty()) {
    auto r = file_argument(inv, file_index, {command, placeholder, usage, true, kExitBadArgument});
    return std::get<int>(r);
  }
  if (is_help_word(inv, file_index)) return print_help(usage);
  auto file = file_argument(inv, file_index, {command, placeholder, usage, true, kExitBadArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  return not_available(inv, command);
}

}  // namespace bp::cli
