#include "verify_usage.hpp"

namespace bp::cli {
namespace {

constexpr const char* kVerdictOptions =
    "  --json           the report as one JSON object on stdout ({\"ok\":..,\"report\":{..}})\n"
    "  --verbose, -V    the subject on stderr, and the coverage line (rules evaluated / gated off)\n"
    "  --warn-as-fail   a WARN check fails the verdict\n"
    "  --strict         a WARN or SKIP check fails the verdict (the observer-mode engine-reproduce\n"
    "                   skip excepted)\n"
    "  --color=auto|never|always\n"
    "                   color of the report on stderr (auto: only on a terminal; NO_COLOR disables)\n";

}  // namespace

std::string reconcile_receipt_usage() {
  return "Usage: bp reconcile receipt <file> [--json] [--verbose] [--color=auto|never|always]\n"
         "\n"
         "  Check the arithmetic of one receipt (.json, or .jsonl holding one record; '-' reads stdin)\n"
         "  against the per-record reconciliation rules. Math only: no schema, no engine re-run.\n"
         "  Failures on stderr (Rule N: label on parameter, field_path, stored / recomputed, delta /\n"
         "  tolerance); under --json {\"ok\":true} or {\"ok\":false,\"failures\":[..]} on stdout.\n"
         "\n"
         "  Exit status: 0 all rules hold, 1 a rule failed (or the receipt skips the Rule 14 gate),\n"
         "  2 usage, I/O or JSON error, 3 invalid option.\n";
}

std::string verify_mazur_usage() {
  return std::string("Usage: bp verify mazur [<file>] [--json] [--verbose] [--warn-as-fail] [--strict]\n"
                     "\n"
                     "  The full gate for a v0.1.0 Mazur receipt (default: the bundled fixtures/mazur.golden.jsonl;\n"
                     "  '-' reads stdin): schema, reconcile, engine-reproduce, byte-equal-vs-golden,\n"
                     "  fixture-status, published-anchor-drift (bundled fixtures/mazur.published.json); and\n"
                     "  topology, listed only when the declared topology is not the network the receipt carries.\n"
                     "  Report on stderr.\n"
                     "\n") +
         kVerdictOptions +
         "\n"
         "  Exit status: 0 pass (or warn), 1 verification failed, 2 usage, I/O or JSON error, 3 invalid option.\n";
}

std::string verify_general_usage() {
  return std::string("Usage: bp verify general <file>... [--json] [--verbose] [--warn-as-fail] [--strict]\n"
                     "\n"
                     "  The gate for a v0.2.0+ receipt ('-' reads stdin): schema, reconcile, engine-reproduce\n"
                     "  (skipped for observer-mode imports, where Rule 14 is the gate). A v0.1.0 receipt is\n"
                     "  sent to `bp verify mazur` (exit 1). Report on stderr.\n"
                     "\n"
                     "  Several files, or a directory (its *.json and *.jsonl files, recursively, in name\n"
                     "  order), are verified in one process: one line per receipt and a summary line;\n"
                     "  under --json one JSON object per receipt and a last {\"summary\":..} line. There a\n"
                     "  v0.1.0 receipt gets the Mazur gate and a file of several records is verified as\n"
                     "  `bp verify multi` would (one line, \"bundle\" under --json).\n"
                     "\n") +
         kVerdictOptions +
         "\n"
         "  Exit status: 0 pass, 1 verification failed, 2 usage, I/O or JSON error (for several\n"
         "  receipts: 2 if any could not be read, else 1 if any failed), 3 invalid option.\n";
}

std::string verify_multi_usage() {
  return std::string("Usage: bp verify multi <file.jsonl> [--jobs N] [--json] [--verbose] [--warn-as-fail] [--strict]\n"
                     "\n"
                     "  Verify a run of training steps, one receipt per line ('-' reads stdin): per record\n"
                     "  schema[i] and reconcile[i] (with the engine re-run on every record: Rule 14), then the\n"
                     "  cross-record rules 9, 10, 17, 25, 26. Records are streamed: at most 4 per job are in\n"
                     "  memory at once, so memory does not grow with the bundle.\n"
                     "\n"
                     "  --jobs N         N threads parse and check records (default: the cores available, as\n"
                     "                   nproc counts them, at most 8; 1 to 256); the cross-record rules take\n"
                     "                   them in input order, so the report, the exit status and the first\n"
                     "                   error are the same for every N\n") +
         kVerdictOptions +
         "\n"
         "  Exit status: 0 pass, 1 verification failed, 2 usage, I/O or JSON error (a line that is\n"
         "  not JSON, an empty input, a record over 256 MiB), 3 invalid option.\n";
}

std::string verify_usage() {
  return "Usage: bp verify mazur|general|multi|nltrain|tensor ...\n"
         "\n"
         "    bp verify mazur [<file>]        the full gate for the Mazur v0.1.0 receipt\n"
         "    bp verify general <file>...     schema, rules, engine re-run; many files or a directory\n"
         "    bp verify multi <file.jsonl>    a run of steps, streamed, every record re-run, with the\n"
         "                                    cross-record rules\n"
         "    bp verify nltrain <file.jsonl>  nltrain's step receipts (nltrain train --receipts), every\n"
         "                                    number re-derived under nine rules\n"
         "    bp verify tensor <file.jsonl>   a PyTorch or JAX MLP's step receipts (bp examples\n"
         "                                    pytorch_mlp, jax_mlp),\n"
         "                                    every value within its fp64 error bound\n"
         "\n"
         "  bp verify <kind> --help for one of them.\n";
}

}  // namespace bp::cli
