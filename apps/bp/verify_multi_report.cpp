#include "verify_multi_report.hpp"

#include "command_support.hpp"
#include "common/js_json_text.hpp"
#include "reconcile_report.hpp"
#include "terminal.hpp"

namespace bp::cli {
namespace {

int write_json(MultiRun& run, const MultiRun::Outcome& o, bool ok) {
  std::string head = std::string("{\"ok\":") + (ok ? "true" : "false") + ",\"report\":{\"overall\":" +
                     common::js_stringify(o.overall) + ",\"record_count\":" + std::to_string(run.records()) +
                     ",\"per_record\":[";
  bool written = write_stdout(head) && run.per_record().replay(write_stdout);
  std::string tail = "],\"cross_record_checks\":[";
  for (std::size_t i = 0; i < o.cross.size(); ++i) {
    if (i > 0) tail += ",";
    if (i == 0 && o.rules_evidence_spooled) {
      std::string j = common::js_stringify(check_json(o.cross[0]));
      j.pop_back();  // the closing brace; the evidence follows
      tail += j + ",\"evidence\":[";
      written = written && write_stdout(tail) && run.cross_evidence().replay(write_stdout);
      tail = "]}";
    } else {
      tail += common::js_stringify(check_json(o.cross[i]));
    }
  }
  tail += "]";
  if (run.any_math_gate_skipped()) {
    tail += ",\"math_gate_skipped\":true,\"skipped_rules\":" + common::js_stringify(run.skipped_rules());
  }
  if (o.has_coverage) {
    tail += ",\"rules_evaluated\":" + common::js_stringify(o.bundle.rules_evaluated) +
            ",\"gated_off\":" + common::js_stringify(o.bundle.gated_off);
  }
  tail += "}}\n";
  written = written && write_stdout(tail);
  if (!written) {
    write_stderr("bp: could not write the report to stdout\n");
    return kExitMalformedOrIo;
  }
  return ok ? kExitOk : kExitFailure;
}

void write_text(const Invocation& inv, MultiRun& run, const MultiRun::Outcome& o) {
  const bool color = run.color();
  const std::string n = std::to_string(run.records());
  const std::string header = o.overall == "pass"   ? "verify multi passed (" + n + " record(s))"
                             : o.overall == "warn" ? "verify multi passed with warnings (" + n + " record(s))"
                                                   : "verify multi failed (" + n + " record(s))";
  auto to_stderr = [](std::string_view s) { return write_stderr(s); };
  (void)write_stderr(paint_header(header, o.overall, color) + "\n\n");
  (void)run.per_record().replay(to_stderr);
  std::string tail = "\ncross-record:\n";
  for (std::size_t i = 0; i < o.cross.size(); ++i) {
    if (i == 0 && o.rules_evidence_spooled) {
      Check bare = o.cross[0];
      bare.evidence.reset();
      tail += render_check(bare, color) + "    [\n";
      (void)write_stderr(tail);
      (void)run.cross_evidence().replay(to_stderr);
      tail = "\n    ]\n";
    } else {
      tail += render_check(o.cross[i], color);
    }
  }
  if (inv.verbose && o.has_coverage) {
    tail += "\n  " + coverage_line(o.bundle.rules_evaluated, o.bundle.gated_off) + "\n";
  }
  (void)write_stderr(tail);
}

}  // namespace

int write_multi_report(const Invocation& inv, MultiRun& run, const MultiRun::Outcome& outcome) {
  const bool ok = outcome.overall != "fail";
  if (inv.json) return write_json(run, outcome, ok);
  write_text(inv, run, outcome);
  return ok ? kExitOk : kExitFailure;
}

}  // namespace bp::cli
