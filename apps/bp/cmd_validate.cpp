// bp validate <file>: schema-only check of a receipt.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"

namespace bp::cli {

int run_validate(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_usage());
  auto file = file_argument(inv, 1, {"validate", "<file>", validate_usage(), true, kExitBadArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  return not_available(inv, "validate");
}

}  // namespace bp::cli
