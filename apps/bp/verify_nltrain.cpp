#include "verify_nltrain.hpp"

#include <thread>

#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "common/file_system.hpp"
#include "input_source.hpp"
#include "output_sink.hpp"
#include "terminal.hpp"
#include "verify_stream_error.hpp"
#include "verify/nltrain.hpp"

namespace bp::cli {
namespace {

std::string where(const nl_audit::Failure& f) {
  std::string s = "line " + std::to_string(f.line) + " step " + std::to_string(f.step);
  if (!f.tensor.empty()) s += " " + f.tensor + (f.index ? "[" + std::to_string(*f.index) + "]" : "");
  return s;
}

std::string text_report(const nl_audit::StreamVerifier& v) {
  const bool ok = v.failure_count() == 0;
  std::string s = std::string("bp verify nltrain: ") + (ok ? "PASS" : "FAIL") + ", " + std::to_string(v.receipts()) +
                  " receipt(s)";
  if (v.not_bitwise() > 0) {
    s += ", " + std::to_string(v.not_bitwise()) + " value(s) not bitwise (" +
         (v.kernel_device().empty() ? std::string("--cross-machine")
                                    : "kernels " + v.kernel_device() + ": libgpu's kernels, which the bit-exact way does not replay") +
         ": held to the fp64 bound)";
  }
  s += "\n";
  if (v.normwise_steps() > 0) {
    s += "  note: " + std::to_string(v.normwise_steps()) +
         " step(s) held to the norm-wise fp64 tolerance: their per-entry bounds were not proven (a branch inside a "
         "bound, or a bound that overflowed)\n";
  }
  for (const nl_audit::RuleInfo& r : nl_audit::kRules) {
    const nl_audit::RuleTally& t = v.tally()[r.number];
    s += "  " + std::to_string(r.number) + " " + std::string(r.name) + std::string(10 - r.name.size(), ' ') +
         (t.failed > 0 ? "FAIL " : (t.checked > 0 ? "pass " : "off  ")) + std::to_string(t.checked) + " checked, " +
         std::to_string(t.failed) + " failed\n";
  }
  if (!v.foreign_blas().empty()) {
    s += "  note: the receipts were made with " + v.foreign_blas() + "; this machine has " + v.local_blas() +
         (v.failure_count() > 0 && v.not_bitwise() == 0 ? ": the bits can differ between them (--cross-machine holds such values to the fp64 bound)\n" : "\n");
  }
  for (const nl_audit::Failure& f : v.failures()) {
    s += "  rule " + std::to_string(f.rule) + " " + std::string(nl_audit::kRules[f.rule - 1].name) + ": " + where(f) + ": " + f.message;
    if (!f.stored.empty()) s += " (stored " + f.stored + ", recomputed " + f.recomputed + ", tolerance " + f.tolerance + ")";
    s += "\n";
  }
  if (v.failure_count() > v.failures().size()) {
    s += "  ... and " + std::to_string(v.failure_count() - v.failures().size()) + " more failure(s)\n";
  }
  return s;
}

std::string json_report(const nl_audit::StreamVerifier& v) {
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const nl_audit::RuleInfo& r : nl_audit::kRules) {
    const nl_audit::RuleTally& t = v.tally()[r.number];
    rules.push_back({{"number", r.number}, {"name", r.name}, {"checked", t.checked}, {"failed", t.failed}});
  }
  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
  for (const nl_audit::Failure& f : v.failures()) {
    nlohmann::ordered_json j{{"rule", f.rule}, {"name", nl_audit::kRules[f.rule - 1].name}, {"line", f.line}, {"step", f.step},
                             {"tensor", f.tensor}, {"index", f.index ? nlohmann::ordered_json(*f.index) : nullptr},
                             {"stored", f.stored}, {"recomputed", f.recomputed}, {"tolerance", f.tolerance},
                             {"message", f.message}};
    failures.push_back(std::move(j));
  }
  nlohmann::ordered_json doc{{"ok", v.failure_count() == 0}, {"mode", "nltrain"},       {"receipts", v.receipts()},
                             {"failure_count", v.failure_count()}, {"not_bitwise", v.not_bitwise()},
                             {"normwise_steps", v.normwise_steps()}, {"rules", rules},
                             {"failures", failures}};
  return doc.dump() + "\n";
}

}  // namespace

std::string verify_nltrain_usage() {
  return "Usage: bp verify nltrain <file.jsonl> [--data <file>] [--cross-machine] [--threads 1|2] [--json]\n"
         "\n"
         "  Verify nltrain's step receipts (nltrain train --receipts; '-' reads stdin), streamed:\n"
         "  memory holds one receipt and one training state, whatever the number of steps. Nine rules:\n"
         "  1 schema, 2 chain, 3 data, 4 loss, 5 gradient, 6 clip, 7 schedule, 8 adamw, 9 memory.\n"
         "  Every number is re-derived bit for bit through libcore/nl's hand-written backward and in\n"
         "  fp64 within an error bound (man bp, \"verify nltrain\"). Report on stderr.\n"
         "\n"
         "  --data <file>    the training data: its tokens (bytes, or u16/u32 ids as the receipts'\n"
         "                   data.format says) must be the receipts' (compact receipts need it)\n"
         "  --cross-machine  receipts made with another BLAS core type: values whose bits (fp32, or\n"
         "                   fp64 for an --fp64 run's) differ here are held to the fp64 bound instead\n"
         "                   of failing\n"
         "  --threads 1|2    2 (the default where there are two cores or more): the fp64 way of a\n"
         "                   step runs on a second thread beside the bit-exact way of the next;\n"
         "                   the report is the same\n"
         "  --json           the report as one JSON object on stdout\n"
         "\n"
         "  Exit status: 0 every rule holds, 1 a rule failed, 2 usage, I/O or malformed receipt,\n"
         "  3 invalid option or data that does not fit the receipts.\n";
}

int verify_nltrain_file(const Invocation& inv, const std::string& file) {
  verify::NltrainOptions opt;
  opt.cross_machine = inv.cross_machine;
  opt.threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  if (inv.threads) {
    if (*inv.threads != "1" && *inv.threads != "2") {
      return fail(inv, cli_error(kExitInvalidArgument, "INVALID_THREADS",
                             "--threads: '" + *inv.threads + "': bp verify nltrain runs on 1 or 2 threads"));
    }
    opt.threads = *inv.threads == "1" ? 1 : 2;
  }
  if (inv.data) {
    auto text = common::read_text(common::real_file_system(), *inv.data, std::size_t{1} << 32);
    if (!text.ok()) return fail(inv, cli_error(kExitMalformedOrIo, "IO_ERROR", "--data: " + text.error().to_string()));
    opt.data = std::move(*text);
  }
  auto opened = open_input_fd(file);
  if (auto* e = std::get_if<CliError>(&opened)) return fail(inv, *e);
  const InputFd input{std::get<int>(opened)};
  const int fd = input.fd;
  const std::string name = input_display_name(file);
  auto verified = verify::verify_nltrain(fd, name, std::move(opt));
  if (!verified) return fail(inv, tensor_step_stream_error(verified.error()));
  const nl_audit::StreamVerifier& v = *verified;
  const int code = v.failure_count() == 0 ? kExitOk : kExitFailure;
  if (inv.json) {
    if (!write_stdout(json_report(v))) return stdout_write_failed();
    return code;
  }
  // A report stderr did not take (closed, full) is a lost verdict: exit 2, as for stdout.
  return write_stderr(text_report(v)) ? code : kExitMalformedOrIo;
}

}  // namespace bp::cli
