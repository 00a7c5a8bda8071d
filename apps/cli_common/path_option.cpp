#include "cli_common/path_option.hpp"

#include <CLI/CLI.hpp>

namespace cli_common {

CLI::Option* add_path_option(CLI::App* cmd, const std::string& name, std::string& out, const std::string& help) {
  return cmd
      ->add_option_function<std::string>(
          name,
          [name, &out](const std::string& text) {
            // CLI11 reports a ValidationError as a usage error; main prints its text on one line.
            if (text.empty()) throw CLI::ValidationError(name + ": must not be empty (a path, or '-' where it allows one)");
            out = text;
          },
          help)
      ->type_name("TEXT");
}

}  // namespace cli_common
