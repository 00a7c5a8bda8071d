// bp verify mazur|general|multi: named for the verifier's issue; the grammar is checked here.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "suggest.hpp"

namespace bp::cli {

int run_verify(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'verify'. Did you mean 'bp verify mazur', 'bp verify general "
                            "<file>', or 'bp verify multi <file.jsonl>'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 1)) return print_help(top_usage());
  if (*noun == "mazur") {
    if (is_help_word(inv, 2)) return print_help(unavailable_usage("bp verify mazur [<file>] [--json] [--verbose]"));
    // The file is optional (default: the bundled Mazur golden); only a flag-shaped one is refused.
    if (auto file = word(inv, 2); file && !file->empty() && (*file)[0] == '-' && *file != "-") {
      auto r = file_argument(inv, 2, {"verify mazur", "<file>", {}, false, kExitBadArgument});
      if (auto* code = std::get_if<int>(&r)) return *code;
    }
    return not_available(inv, "verify mazur");
  }
  if (*noun == "general" || *noun == "multi") {
    const bool multi = *noun == "multi";
    const std::string command = "verify " + *noun;
    const std::string placeholder = multi ? "<file.jsonl>" : "<file>";
    const std::string usage = unavailable_usage("bp " + command + " " + placeholder + " [--json] [--verbose]");
    if (is_help_word(inv, 2)) return print_help(usage);
    auto file = file_argument(inv, 2, {command, placeholder, usage, false, kExitBadArgument});
    if (auto* code = std::get_if<int>(&file)) return *code;
    return not_available(inv, command);
  }
  const auto suggestion = suggest_subnoun(*noun, {{"mazur", "bp verify mazur"},
                                                  {"general", "bp verify general <file>"},
                                                  {"multi", "bp verify multi <file.jsonl>"}});
  if (suggestion) {
    return usage_error(inv, "unknown subcommand 'verify " + *noun + "'. Did you mean '" + std::string(*suggestion) +
                                "'? Run 'bp --help' for usage.");
  }
  return usage_error(inv, "unknown subcommand 'verify " + *noun +
                              "'. Expected 'mazur', 'general', or 'multi'. Run 'bp --help' for usage.");
}

}  // namespace bp::cli
