// nltrain: trains nested-learning models. Its training commands arrive with the nl issue;
// until then the tool answers --help and --version only.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"nltrain: train nested-learning models (memory rules in a MAG block)"};
  app.set_version_flag("--version", std::string("nltrain 0.1.0"));
  app.require_subcommand(0, 0);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
