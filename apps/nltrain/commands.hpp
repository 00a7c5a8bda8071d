#pragma once
// Each cmd_<name>.cpp adds its subcommand to the app and returns what runs it once parsed.
#include <CLI/CLI.hpp>

#include "cli_common/subcommands.hpp"

namespace nltrain::cli {

using cli_common::Registration;
using cli_common::Runner;

Registration add_train_command(CLI::App& app);
Registration add_gradcheck_command(CLI::App& app);
Registration add_init_command(CLI::App& app);
Registration add_grads_command(CLI::App& app);
Registration add_eval_command(CLI::App& app);
Registration add_generate_command(CLI::App& app);
Registration add_plot_command(CLI::App& app);
Registration add_export_command(CLI::App& app);

}  // namespace nltrain::cli
