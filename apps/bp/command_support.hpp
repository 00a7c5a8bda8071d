#pragma once
// Small pieces every cmd_<name>.cpp uses: reporting and returning an exit status, help
// output, the file-argument checks, and the verbose log.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "argv_scan.hpp"
#include "cli_error.hpp"

namespace bp::cli {

// Reports `e` (per --json) and returns its exit status.
[[nodiscard]] int fail(const Invocation& inv, const CliError& e);

// A plain usage error (code USAGE, exit 2) such as "incomplete command 'generate'. ...".
[[nodiscard]] int usage_error(const Invocation& inv, std::string message);

// Prints help text on stdout; exit 0.
[[nodiscard]] int print_help(std::string_view text);

[[nodiscard]] bool is_help_word(const Invocation& inv, std::size_t index);
[[nodiscard]] std::optional<std::string> word(const Invocation& inv, std::size_t index);

// "bp: <message>" on stderr when --verbose.
void verbose_log(const Invocation& inv, std::string_view message);

struct FileArgRule {
  std::string_view command;      // "generate from-config"
  std::string_view placeholder;  // "<file>"
  std::string usage;             // printed on stderr when the argument is missing (human mode)
  bool allow_double_dash = true; // "--" accepted as a file name
  int flag_like_exit = kExitInvalidArgument;
};

// The file argument at words[index], or the exit status after reporting why there is none.
[[nodiscard]] std::variant<std::string, int> file_argument(const Invocation& inv, std::size_t index,
                                                           const FileArgRule& rule);

}  // namespace bp::cli
