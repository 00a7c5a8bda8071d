#include "import_help.hpp"

namespace bp::cli {
namespace {

const char* const kExitCodes =
    "  Exit status:\n"
    "    0  imported, and the engine-recompute differential agreed\n"
    "    1  imported, but the differential DISAGREED (the receipts are still written, with\n"
    "       verification_state 'engine_recompute_disagreed', for audit)\n"
    "    2  usage, I/O, or a sidecar refused (not JSON, schema, framework, format, sequence)\n"
    "    3  invalid argument (a flag-shaped file name, a malformed SOURCE_DATE_EPOCH, --jobs\n"
    "       out of range or given to a one-step import)\n";

const char* const kOptions =
    "  Options:\n"
    "    --out <file>   write the receipts to <file> (atomically) instead of stdout\n"
    "    --json         one JSON summary line on stderr (the differential outcome)\n"
    "    --verbose, -V  diagnostics on stderr\n";

const char* const kEnvironment = "  SOURCE_DATE_EPOCH (seconds) pins attestor.import_provenance.import_timestamp.\n";

}  // namespace

std::string import_usage() {
  return "Usage: bp import <framework> [multi] <sidecar> [--out <file>] [--json] [--verbose]\n"
         "\n"
         "  Turn a framework-trace sidecar into an observer-mode receipt: the framework's claimed\n"
         "  forward, loss, backward and update become the receipt's fields, and bp's engine re-runs\n"
         "  the step from the sidecar's inputs as an independent witness (Rule 14).\n"
         "\n"
         "    bp import pytorch    <sidecar>         one step (one JSON document)\n"
         "    bp import jax        <sidecar>\n"
         "    bp import tensorflow <sidecar>\n"
         "    bp import pytorch    multi <sidecar.jsonl>   one step per line, a bound bundle\n"
         "    bp import jax        multi <sidecar.jsonl>\n"
         "    bp import tensorflow multi <sidecar.jsonl>\n"
         "\n"
         "  The framework is named, never detected. '-' reads stdin. See bp(1), IMPORT.\n"
         "  Run `bp import <framework> --help` for details.\n";
}

std::string import_framework_usage(std::string_view framework) {
  const std::string fw(framework);
  return "Usage: bp import " + fw + " <sidecar> [--out <file>] [--json] [--verbose]\n"
         "\n"
         "  Import one " + fw + " step: a framework-trace sidecar (v0.1.0, v0.3.0 .. v0.8.0) whose\n"
         "  source_framework.name is '" + fw + "'. '-' reads stdin. The receipt goes to stdout.\n"
         "\n" + kOptions + kEnvironment + "\n" + kExitCodes;
}

std::string import_multi_usage(std::string_view framework) {
  const std::string fw(framework);
  return "Usage: bp import " + fw + " multi <sidecar.jsonl> [--jobs N] [--out <file>] [--json] [--verbose]\n"
         "\n"
         "  Import a " + fw + " training trace: one framework-trace record (v0.2.0 .. v0.8.0) per line,\n"
         "  in step order, all from one framework version. trace_id on every record or on none\n"
         "  (then derived from the sidecar's hash); step_index dense from 0 or absent everywhere.\n"
         "  Every receipt carries attestor.bundle_root_digest, the sha256 of the bundle's canonical\n"
         "  bytes without it (Rule 17: integrity, not authenticity). '-' reads stdin.\n"
         "\n" + kOptions +
         "    --jobs N       N threads import the steps (default: the cores available, as nproc\n"
         "                   counts them, at most 8; 1 to 256); the receipts, the exit status and\n"
         "                   the first error are the same for every N\n" +
         kEnvironment + "\n" + kExitCodes +
         "\n  Example: bp import " + fw + " multi train.sidecar.jsonl | bp verify multi -\n";
}

}  // namespace bp::cli
