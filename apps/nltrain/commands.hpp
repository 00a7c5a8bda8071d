#pragma once
// Each cmd_<name>.cpp adds its subcommand to the app and returns what runs it once parsed.
#include <functional>

#include <CLI/CLI.hpp>

namespace nltrain {

using Runner = std::function<int()>;
struct Registration {
  CLI::App* app = nullptr;
  Runner run;
};

Registration add_train_command(CLI::App& app);
Registration add_gradcheck_command(CLI::App& app);
Registration add_init_command(CLI::App& app);
Registration add_grads_command(CLI::App& app);
Registration add_eval_command(CLI::App& app);
Registration add_generate_command(CLI::App& app);
Registration add_plot_command(CLI::App& app);

}  // namespace nltrain
