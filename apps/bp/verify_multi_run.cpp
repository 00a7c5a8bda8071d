#include "verify_multi_run.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/js_json_text.hpp"
#include "reconcile/result_json.hpp"
#include "reconcile_report.hpp"
#include "terminal.hpp"
#include "verify_checks.hpp"

namespace bp::cli {
namespace {

// Deliberate difference from the reference: every record's numbers are derived (bp(1)).
reconcile::Options derive_every_record() { return {.derive_every_record = true}; }

}  // namespace

MultiRun::MultiRun(const Invocation& inv, bool spool_report)
    : inv_(inv),
      spool_report_(spool_report),
      color_(use_color(STDERR_FILENO, inv.color, inv.json)),
      multi_(derive_every_record()) {}

std::optional<std::string> MultiRun::open() {
  if (!spool_report_) return std::nullopt;
  if (auto e = per_record_.open()) return e;
  return cross_evidence_.open();
}

void MultiRun::note(const Check& c) {
  verdict_.add(c);
  if (first_problem_.empty() && c.status != CheckStatus::pass) {
    first_problem_ = c.name + (c.message ? ": " + *c.message : "");
  }
}

void MultiRun::add(std::size_t index, const nlohmann::ordered_json& receipt) {
  Check schema = schema_check(receipt, "schema[" + std::to_string(index) + "]");
  Check rec;
  rec.name = "reconcile[" + std::to_string(index) + "]";
  if (schema.status == CheckStatus::pass) {
    reconcile::Result r;
    if (all_valid_) {
      r = multi_.add(receipt);
      spool_cross_failures(r);
      const std::string prefix = "receipts[" + std::to_string(index) + "].";
      for (auto& f : r.failures) {
        if (f.field_path.compare(0, prefix.size(), prefix) == 0) f.field_path.erase(0, prefix.size());
      }
    } else {
      r = reconcile::reconcile_receipt(receipt, derive_every_record());
    }
    if (r.math_gate_skipped) {
      math_gate_steps_.push_back(index);
      for (int rule : r.skipped_rules) add_skipped_rule(rule);
      if (r.skipped_rules.empty()) add_skipped_rule(14);
    }
    rec = reconcile_check(r, rec.name);
  } else {
    if (all_valid_) {
      all_valid_ = false;
      cross_evidence_.clear();
      cross_failures_ = 0;
    }
    rec.status = CheckStatus::skip;
    rec.message = "skipped — schema validation failed for this record";
  }
  if (index == 0) untraced_ = !receipt.is_object() || !receipt.contains("trace_id");
  note(schema);
  note(rec);
  if (spool_report_) spool_record(index, receipt, schema, rec);
  ++records_;
}

MultiRun::Outcome MultiRun::finish() {
  Outcome out;
  Check rules;
  rules.name = "multi-step-rules-9-10";
  if (!all_valid_) {
    rules.status = CheckStatus::skip;
    rules.message =
        "skipped — at least one record failed schema validation; multi-step rules require all records to be "
        "structurally valid";
  } else {
    out.bundle = multi_.finish();
    spool_cross_failures(out.bundle);
    out.has_coverage = !(out.bundle.rules_evaluated.empty() && out.bundle.gated_off.empty());
    if (cross_failures_ > 0) {
      rules.status = CheckStatus::fail;
      rules.message = std::to_string(cross_failures_) + " cross-record rule failure(s)";
      out.rules_evidence_spooled = true;
    }
  }
  note(rules);
  out.cross.push_back(rules);
  if (untraced_ && records_ > 1) {
    // Deliberate difference: the reference exempts such a bundle from Rule 10 without a word.
    Check trace;
    trace.name = "trace-identity";
    trace.status = CheckStatus::warn;
    trace.message =
        "record 0 has no trace_id, so Rule 10 (one trace, step_index 0, 1, 2, ... dense) was not applied: the "
        "records' order and membership in one run are unchecked. Add trace_id to every record; --strict refuses.";
    note(trace);
    out.cross.push_back(std::move(trace));
  }
  if (!math_gate_steps_.empty()) {
    Check gate;
    gate.name = "math-gate";
    gate.status = CheckStatus::fail;
    const std::string list = join_rules(skipped_rules_);
    gate.message = std::to_string(math_gate_steps_.size()) +
                   " record(s) in the bundle self-declare fixture_status.verification_state="
                   "\"engine_recompute_skipped_with_basis\" — the engine-recompute differential (Rule " +
                   list +
                   "), the only independent math gate on observer-mode imports, was SKIPPED on the bundle's own "
                   "say-so. This is NOT a verified PASS: the foreign framework math was never recomputed for those "
                   "step(s). Re-import without the skip (let Rule 14 run) to obtain a verified result, or treat "
                   "this bundle as unverified.";
    nlohmann::ordered_json evidence;
    evidence["math_gate_skipped"] = true;
    evidence["skipped_steps"] = math_gate_steps_;
    evidence["skipped_rules"] = skipped_rules_;
    gate.evidence = std::move(evidence);
    note(gate);
    out.cross.push_back(std::move(gate));
  }
  out.overall = std::string(verdict_.overall({inv_.warn_as_fail, inv_.strict}));
  out.first_problem = first_problem_;
  return out;
}

void MultiRun::add_skipped_rule(int rule) {
  if (std::find(skipped_rules_.begin(), skipped_rules_.end(), rule) != skipped_rules_.end()) return;
  skipped_rules_.push_back(rule);
  std::sort(skipped_rules_.begin(), skipped_rules_.end());
}

// The cross-record check's evidence: every failure reconcileMultiStep reports, in its order.
void MultiRun::spool_cross_failures(const reconcile::Result& r) {
  if (!all_valid_) return;
  for (const auto& f : r.failures) {
    if (spool_report_) {
      const nlohmann::ordered_json j = reconcile::to_json(f);
      if (inv_.json) {
        if (cross_failures_ > 0) cross_evidence_.append(",");
        cross_evidence_.append(common::js_stringify(j));
      } else {
        // An element of JSON.stringify(failures, null, 2), indented as the report indents evidence.
        std::string pretty = common::js_stringify_pretty(j, 2);
        std::string text = cross_failures_ > 0 ? ",\n" : "";
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
    }
    ++cross_failures_;
  }
  cross_failures_ += r.failures_dropped;
}

void MultiRun::spool_record(std::size_t index, const nlohmann::ordered_json& receipt, const Check& schema,
                            const Check& rec) {
  const ReceiptLabel label = describe_receipt(receipt);
  if (inv_.json) {
    nlohmann::ordered_json j;
    j["step_index"] = index;
    if (label.schema_version) j["schema_version"] = *label.schema_version;
    if (label.fixture_id) j["fixture_id"] = *label.fixture_id;
    j["schema"] = check_json(schema);
    j["reconcile"] = check_json(rec);
    per_record_.append((index > 0 ? "," : "") + common::js_stringify(j));
  } else {
    std::string text = "record " + std::to_string(index) + (label.fixture_id ? " (" + *label.fixture_id + ")" : "") +
                       ":\n";
    text += render_check(schema, color_);
    text += render_check(rec, color_);
    per_record_.append(text);
  }
}

}  // namespace bp::cli
