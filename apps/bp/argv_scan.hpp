#pragma once
// Turns argv into words and options with the reference bp's grammar: options may sit
// anywhere (`bp --json validate f` == `bp validate f --json`), value options take
// `--out F` or `--out=F` (a following flag-shaped token is NOT taken as the value),
// --help / -h / --version / -v stay in the word list because their meaning depends on
// their position, and any other flag-shaped token is an error (exit 3).
#include <optional>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "terminal.hpp"

namespace bp::cli {

struct Invocation {
  std::vector<std::string> words;  // argv without recognized options (meta flags kept)
  bool json = false;               // --json / --format=json
  bool verbose = false;            // --verbose / -V
  bool check = false;              // --check
  bool strict = false;             // --strict
  bool warn_as_fail = false;       // --warn-as-fail
  std::optional<std::string> out;       // --out; absent or empty means "not given"
  std::optional<std::string> topology;  // --topology
  std::optional<std::string> data;      // --data (bp verify nltrain)
  bool cross_machine = false;           // --cross-machine (bp verify nltrain)
  std::optional<std::string> threads;   // --threads (bp verify nltrain)
  std::optional<std::string> jobs;      // --jobs (bp verify multi)
  ColorChoice color = ColorChoice::auto_detect;

  [[nodiscard]] bool has_out() const { return out.has_value() && !out->empty(); }
};

struct ScanResult {
  Invocation invocation;
  std::optional<CliError> error;  // exit early with this (json flag already known)
  bool error_is_plain_stderr = false;  // --color errors ignore --json in the reference
};

[[nodiscard]] ScanResult scan_argv(const std::vector<std::string>& args);

// "-x", "--x" but not the stdin sentinel "-" nor the separator "--".
[[nodiscard]] bool is_flag_shaped(const std::string& token);

}  // namespace bp::cli
