// bp validate-input <file>: schema-only check of a topology+input document.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"

namespace bp::cli {

int run_validate_input(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_input_usage());
  auto file = file_argument(inv, 1, {"validate-input", "<file>", validate_input_usage(), true, kExitBadArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  return not_available(inv, "validate-input");
}

}  // namespace bp::cli
