#include "verify_multi_report.hpp"

#include <unistd.h>

#include "command_support.hpp"
#include "common/js_json_text.hpp"
#include "common/json_string.hpp"
#include "reconcile/result_json.hpp"
#include "reconcile_report.hpp"
#include "terminal.hpp"
#include "verify/report_json.hpp"
#include "verify_report.hpp"

namespace bp::cli {

MultiReportSpool::MultiReportSpool(const Invocation& inv)
    : inv_(inv), color_(use_color(STDERR_FILENO, inv.color, inv.json)) {}

std::optional<std::string> MultiReportSpool::open() {
  if (auto e = per_record_.open()) return e;
  return cross_evidence_.open();
}

void MultiReportSpool::record(std::size_t index, const verify::ReceiptLabel& label, const verify::Check& schema,
                              const verify::Check& rec) {
  if (inv_.json) {
    // js_stringify of {step_index, schema_version?, fixture_id?, schema, reconcile}, written directly.
    std::string j = index > 0 ? "," : "";
    j += "{\"step_index\":" + std::to_string(index);
    if (label.schema_version) {
      j += ",\"schema_version\":";
      common::append_json_string(j, *label.schema_version);
    }
    if (label.fixture_id) {
      j += ",\"fixture_id\":";
      common::append_json_string(j, *label.fixture_id);
    }
    j += ",\"schema\":";
    verify::append_check_json(j, schema);
    j += ",\"reconcile\":";
    verify::append_check_json(j, rec);
    j += '}';
    per_record_.append(j);
  } else {
    std::string text = "record " + std::to_string(index) + (label.fixture_id ? " (" + *label.fixture_id + ")" : "") +
                       ":\n";
    text += render_check(schema, color_);
    text += render_check(rec, color_);
    per_record_.append(text);
  }
}

// An element of the cross-record check's evidence: every failure reconcileMultiStep reports, in its order.
void MultiReportSpool::cross_failure(const reconcile::Failure& f, std::size_t counted_before) {
  const nlohmann::ordered_json j = reconcile::to_json(f);
  if (inv_.json) {
    if (counted_before > 0) cross_evidence_.append(",");
    cross_evidence_.append(common::js_stringify(j));
    return;
  }
  // An element of JSON.stringify(failures, null, 2), indented as the report indents evidence.
  std::string pretty = common::js_stringify_pretty(j, 2);
  std::string text = counted_before > 0 ? ",\n" : "";
  std::size_t start = 0;
  for (;;) {
    const auto nl = pretty.find('\n', start);
    text += "      " + pretty.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (nl == std::string::npos) break;
    text += "\n";
    start = nl + 1;
  }
  cross_evidence_.append(text);
}

namespace {

using verify::Check;

int write_json(MultiReportSpool& spool, const verify::MultiOutcome& o, bool ok) {
  std::string head = std::string("{\"ok\":") + (ok ? "true" : "false") + ",\"report\":{\"overall\":" +
                     common::js_stringify(o.overall) + ",\"record_count\":" + std::to_string(o.records) +
                     ",\"per_record\":[";
  bool written = write_stdout(head) && spool.per_record().replay(write_stdout);
  std::string tail = "],\"cross_record_checks\":[";
  for (std::size_t i = 0; i < o.cross.size(); ++i) {
    if (i > 0) tail += ",";
    if (i == 0 && o.rules_evidence_sent) {
      std::string j = common::js_stringify(verify::check_json(o.cross[0]));
      j.pop_back();  // the closing brace; the evidence follows
      tail += j + ",\"evidence\":[";
      written = written && write_stdout(tail) && spool.cross_evidence().replay(write_stdout);
      tail = "]}";
    } else {
      tail += common::js_stringify(verify::check_json(o.cross[i]));
    }
  }
  tail += "]";
  if (o.math_gate_skipped) {
    tail += ",\"math_gate_skipped\":true,\"skipped_rules\":" + common::js_stringify(o.skipped_rules);
  }
  if (o.has_coverage) {
    tail += ",\"rules_evaluated\":" + common::js_stringify(o.bundle.rules_evaluated) +
            ",\"gated_off\":" + common::js_stringify(o.bundle.gated_off);
  }
  tail += "}}\n";
  written = written && write_stdout(tail);
  if (!written) return kExitMalformedOrIo;  // main reports the lost stdout, once, with its reason
  return ok ? kExitOk : kExitFailure;
}

// False when stderr did not take the whole report (closed, full): the verdict was never shown.
bool write_text(const Invocation& inv, MultiReportSpool& spool, const verify::MultiOutcome& o) {
  const bool color = spool.color();
  const std::string n = std::to_string(o.records);
  const std::string header = o.overall == "pass"   ? "verify multi passed (" + n + " record(s))"
                             : o.overall == "warn" ? "verify multi passed with warnings (" + n + " record(s))"
                                                   : "verify multi failed (" + n + " record(s))";
  auto to_stderr = [](std::string_view s) { return write_stderr(s); };
  bool written = write_stderr(paint_header(header, o.overall, color) + "\n\n") && spool.per_record().replay(to_stderr);
  std::string tail = "\ncross-record:\n";
  for (std::size_t i = 0; i < o.cross.size(); ++i) {
    if (i == 0 && o.rules_evidence_sent) {
      Check bare = o.cross[0];
      bare.evidence.reset();
      tail += render_check(bare, color) + "    [\n";
      written = written && write_stderr(tail) && spool.cross_evidence().replay(to_stderr);
      tail = "\n    ]\n";
    } else {
      tail += render_check(o.cross[i], color);
    }
  }
  if (inv.verbose && o.has_coverage) {
    tail += "\n  " + coverage_line(o.bundle.rules_evaluated, o.bundle.gated_off) + "\n";
  }
  return written && write_stderr(tail);
}

}  // namespace

int write_multi_report(const Invocation& inv, MultiReportSpool& spool, const verify::MultiOutcome& outcome) {
  const bool ok = outcome.overall != "fail";
  if (inv.json) return write_json(spool, outcome, ok);
  if (!write_text(inv, spool, outcome)) return kExitMalformedOrIo;  // the report was lost: no verdict reached anyone
  return ok ? kExitOk : kExitFailure;
}

}  // namespace bp::cli
