#include "command_support.hpp"

#include "common/json_string.hpp"
#include "terminal.hpp"

namespace bp::cli {

int fail(const Invocation& inv, const CliError& e) {
  report(e, inv.json);
  return e.exit_code;
}

int usage_error(const Invocation& inv, std::string message) {
  CliError e;
  e.code = "USAGE";
  e.message = std::move(message);
  return fail(inv, e);
}

int print_help(std::string_view text) {
  (void)write_stdout(text);
  return kExitOk;
}

std::optional<std::string> word(const Invocation& inv, std::size_t index) {
  if (index < inv.words.size()) return inv.words[index];
  return std::nullopt;
}

bool is_help_word(const Invocation& inv, std::size_t index) {
  const auto w = word(inv, index);
  return w && (*w == "--help" || *w == "-h");
}

void verbose_log(const Invocation& inv, std::string_view message) {
  if (!inv.verbose) return;
  write_stderr("bp: " + std::string(message) + "\n");
}

std::variant<std::string, int> file_argument(const Invocation& inv, std::size_t index, const FileArgRule& rule) {
  const auto file = word(inv, index);
  if (!file || file->empty()) {
    if (inv.json) {
      CliError e;
      e.code = "MISSING_FILE_ARG";
      e.message = "missing required argument " + std::string(rule.placeholder) + " for '" + std::string(rule.command) +
                  "'. Run 'bp " + std::string(rule.command) + " --help' for usage.";
      return fail(inv, e);
    }
    write_stderr(rule.usage);
    return kExitMalformedOrIo;
  }
  const bool sentinel = *file == "-" || (rule.allow_double_dash && *file == "--");
  if ((*file)[0] == '-' && !sentinel) {
    CliError e;
    e.exit_code = rule.flag_like_exit;
    e.code = "INVALID_FILE_ARG";
    e.message = "refusing to treat " + common::json_string(*file) + " as a filename (starts with '-'). Use 'bp " +
                std::string(rule.command) + " --help' for usage.";
    return fail(inv, e);
  }
  return *file;
}

}  // namespace bp::cli
