#include "help_text.hpp"

#include "build_info/build_info.hpp"

namespace bp::cli {

std::string top_usage() {
  return "bp " + std::string(build_info::version()) +
         " - recompute one training step and emit its canonical receipt\n"
         "\n"
         "Usage:\n"
         "  Produce receipts (canonical JSONL on stdout, or --out <file>):\n"
         "    bp generate mazur|xor|iris [--out <file>] [--check]\n"
         "    bp generate xor-per-neuron-bias|softmax-ce|xor-multi-step [--out <file>] [--check]\n"
         "    bp generate from-config <file> [--out <file>] [--check]\n"
         "\n"
         "  Author and check inputs:\n"
         "    bp scaffold topology --topology mazur|xor|iris [--out <file>]\n"
         "    bp validate-input <file>        check a topology+input config against its schema\n"
         "    bp validate <file>              check a receipt against the schema of its version\n"
         "\n"
         "  Check receipts (report on stderr, or --json on stdout):\n"
         "    bp reconcile receipt <file>     the arithmetic rules only\n"
         "    bp verify mazur [<file>]        the full gate for the Mazur v0.1.0 receipt\n"
         "    bp verify general <file>...     schema, rules, engine re-run; many files or a directory\n"
         "    bp verify multi <file.jsonl>    a run of steps, streamed, with the cross-record rules\n"
         "    bp verify nltrain <file.jsonl>  nltrain's step receipts, every number re-derived\n"
         "    bp verify tensor <file.jsonl>   a PyTorch or JAX MLP's step receipts, each value\n"
         "                                    within its bound\n"
         "\n"
         "  Check steps recorded by a framework:\n"
         "    bp import pytorch|jax|tensorflow [multi] <sidecar.jsonl> [--out <file>]\n"
         "                                    re-run a recorded step, emit receipts\n"
         "    bp examples pytorch|pytorch_mlp|jax|jax_mlp [--print]\n"
         "                                    the recording helpers for your training loop\n"
         "\n"
         "  bp --version | -v                 print the version\n"
         "  bp --help | -h                    print this text; bp <command> --help for one command\n"
         "\n"
         "Options (accepted anywhere on the line):\n"
         "  --json                          JSON results and errors on stdout\n"
         "  --verbose, -V                   progress lines on stderr\n"
         "  --color=auto|never|always       colored text (auto: only on a terminal; NO_COLOR disables)\n"
         "  --out <file>                    write the result to <file> atomically\n"
         "  --check                         compare with the golden instead of writing; exit 1 on drift\n"
         "  --topology <name>               the sample `scaffold topology` writes\n"
         "  --warn-as-fail, --strict        verdict options of verify\n"
         "  -                               as <file>: read standard input\n"
         "\n"
         "Exit status:\n"
         "  0  success\n"
         "  1  verdict failure: verification failed, drift under --check, a schema violation\n"
         "  2  usage, I/O or malformed input (file, line and JSON path on stderr)\n"
         "  3  invalid option or option value\n"
         "  4  this installation lacks what the command needs (a schema file, a bundled fixture)\n"
         "\n"
         "See bp(1) for limits and for where bp deliberately differs from the reference.\n";
}

std::string generate_builtin_usage(std::string_view name) {
  const std::string n(name);
  return "Usage: bp generate " + n +
         " [--out <file>] [--check] [--json] [--verbose]\n"
         "\n"
         "  Run the built-in " +
         n +
         " step in binary64 and write its canonical receipt.\n"
         "\n"
         "  (no option)      receipt on stdout\n"
         "  --out <file>     receipt to <file>, written atomically\n"
         "  --check          compare with the bundled golden (with --out F: with F); exit 0 when the bytes\n"
         "                   are equal, 1 otherwise\n"
         "  --json           with --check or --out: a one-line JSON result on stdout\n"
         "\n"
         "  Exit status: 0 written or equal, 1 drift, 2 usage or I/O error, 4 the bundled golden\n"
         "  missing or unreadable (a broken installation).\n";
}

std::string generate_from_config_usage() {
  return "Usage: bp generate from-config <file> [--out <file>] [--check] [--json] [--verbose]\n"
         "\n"
         "  Read a topology+input document (schema topology-input v0.4.0; '-' reads stdin), run\n"
         "  one step and write its canonical receipt. Receipt-only fields in the input are refused.\n"
         "  Write a starting document with `bp scaffold topology --topology xor`.\n"
         "\n"
         "  (no option)      receipt on stdout\n"
         "  --out <file>     receipt to <file>, written atomically\n"
         "  --check          compare with the golden named by --out instead of writing it;\n"
         "                   exit 0 when the bytes are equal, 1 otherwise (--out is required)\n"
         "  --json           with --check or --out: a one-line JSON result on stdout\n"
         "\n"
         "  Exit status: 0 written or equal, 1 drift, 2 usage, I/O or input error, 3 --check without --out.\n";
}

std::string scaffold_topology_usage() {
  return "Usage: bp scaffold topology --topology mazur|xor|iris [--out <file>] [--json]\n"
         "\n"
         "  Write the topology+input document of a built-in sample, two-space indented, as a\n"
         "  starting point for `bp generate from-config`.\n"
         "\n"
         "  --topology <name>  mazur, xor or iris (required)\n"
         "  --out <file>       write to <file> atomically instead of stdout\n"
         "  --json             with --out: print {ok, output_path, bytes}\n"
         "\n"
         "  Exit status: 0 written, 2 I/O error, 3 missing or unknown --topology.\n";
}

std::string validate_usage() {
  return "Usage: bp validate <file> [--json] [--verbose]\n"
         "\n"
         "  Check a receipt (.json, or .jsonl holding one record; '-' reads stdin) against the\n"
         "  receipt schema its schema_version names. Schema only: no arithmetic is checked.\n"
         "\n"
         "  Exit status: 0 valid, 1 schema violation, 2 usage, I/O or JSON error.\n";
}

std::string validate_input_usage() {
  return "Usage: bp validate-input <file> [--json] [--verbose]\n"
         "\n"
         "  Check a topology+input document ('-' reads stdin) against schema topology-input\n"
         "  v0.4.0 without running the engine.\n"
         "\n"
         "  Exit status: 0 valid, 1 schema violation, 2 usage, I/O or JSON error, 3 invalid option.\n";
}

std::string unavailable_usage(std::string_view command_line) {
  return "Usage: " + std::string(command_line) +
         "\n"
         "\n"
         "  This command is part of bp's surface but is not available in this build; running it\n"
         "  exits 4 with a message saying so.\n";
}

}  // namespace bp::cli
