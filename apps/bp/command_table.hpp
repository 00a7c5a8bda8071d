#pragma once
// bp's verbs. Every verb the reference has is named here, so the grammar (help, incomplete
// commands, unknown sub-nouns, file-argument checks) answers the same way; verbs whose
// library is not in this build answer "not available in this build" with exit 4.
#include <string_view>
#include <vector>

#include "argv_scan.hpp"

namespace bp::cli {

struct Command {
  std::string_view verb;
  bool available;  // false: the grammar is checked, then exit 4
  int (*run)(const Invocation&);
};

[[nodiscard]] const std::vector<Command>& command_table();

// Runs the command the words name; returns the exit status.
[[nodiscard]] int dispatch(const Invocation& inv);

int run_generate(const Invocation& inv);
int run_scaffold(const Invocation& inv);
int run_validate(const Invocation& inv);
int run_validate_input(const Invocation& inv);
int run_reconcile(const Invocation& inv);
int run_verify(const Invocation& inv);
int run_import(const Invocation& inv);
int run_examples(const Invocation& inv);

}  // namespace bp::cli
