#include "verify_tensor.hpp"

#include <malloc.h>

#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "input_source.hpp"
#include "output_sink.hpp"
#include "terminal.hpp"
#include "verify_stream_error.hpp"
#include "verify/tensor.hpp"

namespace bp::cli {
namespace {

std::string rule_name(unsigned rule) { return std::string(mlp_audit::kRules[rule - 1].name); }

std::string text_report(const mlp_audit::StreamVerifier& v) {
  const bool ok = v.failure_count() == 0;
  std::string s = std::string("bp verify tensor: ") + (ok ? "PASS" : "FAIL") + ", " + std::to_string(v.receipts()) + " receipt(s)";
  if (v.first_index() > 0) s += " from receipt " + std::to_string(v.first_index()) + " (the run's earlier receipts were not given)";
  s += "\n";
  if (v.kinks() > 0) {
    s += "  note: " + std::to_string(v.kinks()) +
         " ReLU/LeakyReLU input(s) within their bound of the kink: both slopes allowed there (wider bounds)\n";
  }
  if (v.normwise_entries() > 0) {
    s += "  note: " + std::to_string(v.normwise_entries()) + " entr(ies) held to the norm-wise tolerance: their bound overflowed\n";
  }
  for (const mlp_audit::RuleInfo& r : mlp_audit::kRules) {
    const mlp_audit::RuleTally& t = v.tally()[r.number];
    s += "  " + std::to_string(r.number) + " " + std::string(r.name) + std::string(11 - r.name.size(), ' ') +
         (t.failed > 0 ? "FAIL " : (t.checked > 0 ? "pass " : "off  ")) + std::to_string(t.checked) + " checked, " +
         std::to_string(t.failed) + " failed\n";
  }
  for (const mlp_audit::Failure& f : v.failures()) {
    s += "  rule " + std::to_string(f.rule) + " " + rule_name(f.rule) + ": line " + std::to_string(f.line) + " step " +
         std::to_string(f.step);
    if (!f.tensor.empty()) {
      // Appended piece by piece: GCC 12 at -O2 reports a false -Wrestrict on "[" + temporary.
      s.append(" ").append(f.tensor);
      if (f.index) s.append("[").append(std::to_string(*f.index)).append("]");
    }
    s += ": " + f.message;
    if (!f.stored.empty()) s += " (stored " + f.stored + ", recomputed " + f.recomputed + ", bound " + f.bound + ")";
    s += "\n";
  }
  if (v.failure_count() > v.failures().size()) {
    s += "  ... and " + std::to_string(v.failure_count() - v.failures().size()) + " more failure(s)\n";
  }
  return s;
}

std::string json_report(const mlp_audit::StreamVerifier& v) {
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const mlp_audit::RuleInfo& r : mlp_audit::kRules) {
    const mlp_audit::RuleTally& t = v.tally()[r.number];
    rules.push_back({{"number", r.number}, {"name", r.name}, {"checked", t.checked}, {"failed", t.failed}});
  }
  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
  for (const mlp_audit::Failure& f : v.failures()) {
    failures.push_back({{"rule", f.rule}, {"name", rule_name(f.rule)}, {"line", f.line}, {"step", f.step}, {"tensor", f.tensor},
                        {"index", f.index ? nlohmann::ordered_json(*f.index) : nullptr}, {"stored", f.stored},
                        {"recomputed", f.recomputed}, {"bound", f.bound}, {"message", f.message}});
  }
  nlohmann::ordered_json doc{{"ok", v.failure_count() == 0}, {"mode", "tensor"}, {"receipts", v.receipts()},
                             {"first_index", v.first_index()}, {"failure_count", v.failure_count()}, {"kinks", v.kinks()},
                             {"normwise_entries", v.normwise_entries()}, {"rules", rules}, {"failures", failures}};
  return doc.dump() + "\n";
}

}  // namespace

std::string verify_tensor_usage() {
  return "Usage: bp verify tensor <file.jsonl> [--json]\n"
         "\n"
         "  Verify an MLP's step receipts (tensor-step 0.2.0, model kind mlp, written by the\n"
         "  MlpReceiptWriter of `bp examples pytorch_mlp --print` for PyTorch or of `bp examples\n"
         "  jax_mlp --print` for JAX's stax; '-' reads stdin), streamed: memory\n"
         "  holds one receipt whatever the number of steps; files of one run chain by digest\n"
         "  (cat a.jsonl b.jsonl | bp verify tensor -). Each step's forward, loss, backward and\n"
         "  optimizer update are recomputed in fp64; every stored fp32 value must lie within the\n"
         "  error bound carried for it. Seven rules: 1 chain, 2 continuity, 3 loss, 4 gradient,\n"
         "  5 update, 6 lr, 7 clip. Report on stderr.\n"
         "\n"
         "  --json  the report as one JSON object on stdout\n"
         "\n"
         "  Exit status: 0 every rule holds, 1 a rule failed, 2 usage, I/O or malformed receipt,\n"
         "  3 invalid option.\n";
}

int verify_tensor_file(const Invocation& inv, const std::string& file) {
  auto opened = open_input_fd(file);
  if (auto* e = std::get_if<CliError>(&opened)) return fail(inv, *e);
  const InputFd input{std::get<int>(opened)};
  const int fd = input.fd;
  const std::string name = input_display_name(file);
  // Each receipt allocates and frees its tensors again (megabytes each, above glibc's default
  // mmap threshold, and the heap's top trimmed after each): kept on the heap instead, the pages
  // are not faulted in anew for every receipt (a sixth of the CPU time of a 784-256-10 receipt).
  // The peak stays one receipt's working set.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
  auto verified = verify::verify_tensor(fd, name);
  if (!verified) return fail(inv, tensor_step_stream_error(verified.error()));
  const mlp_audit::StreamVerifier& v = *verified;
  const int code = v.failure_count() == 0 ? kExitOk : kExitFailure;
  if (inv.json) {
    if (!write_stdout(json_report(v))) return stdout_write_failed();
    return code;
  }
  // A report stderr did not take (closed, full) is a lost verdict: exit 2, as for stdout.
  return write_stderr(text_report(v)) ? code : kExitMalformedOrIo;
}

}  // namespace bp::cli
