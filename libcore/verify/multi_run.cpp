#include "verify/multi_run.hpp"

#include <algorithm>
#include <utility>

#include "common/json_release.hpp"
#include "reconcile/coverage.hpp"

namespace verify {
namespace {

// Deliberate differences from the reference (bp(1)): every record's numbers are derived, sums are
// judged against their terms' size, and an imported record's labels are the engine's.
reconcile::Options derive_every_record() {
  return {.derive_every_record = true, .term_scaled_sums = true, .engine_labels = true};
}

}  // namespace

MultiRun::MultiRun(const VerdictOptions& options, MultiObserver* observer)
    : options_(options), observer_(observer), multi_(derive_every_record()) {}

void MultiRun::note(const Check& c) {
  verdict_.add(c);
  if (first_problem_.empty() && c.status != CheckStatus::pass) {
    first_problem_ = c.name + (c.message ? ": " + *c.message : "");
  }
}

PreparedRecord prepare_record(nlohmann::ordered_json receipt, std::size_t index) {
  PreparedRecord p;
  p.schema = schema_check(receipt, "schema[" + std::to_string(index) + "]");
  if (p.schema.status == CheckStatus::pass) {
    const reconcile::ReadReceipt read(receipt);
    p.own = reconcile::reconcile_receipt(read, derive_every_record());
    p.facts = reconcile::record_facts(read);
  }
  p.label = describe_receipt(receipt);
  p.traced = receipt.is_object() && receipt.contains("trace_id");
  common::release_json(receipt);
  return p;
}

PreparedRecord prepare_record(common::JsonDocument&& receipt, std::size_t index) {
  PreparedRecord p;
  const common::JsonView root = receipt.root();
  p.schema = schema_check(root, "schema[" + std::to_string(index) + "]");
  p.label = describe_receipt(root);
  p.traced = root.is_object() && root.find("trace_id").has_value();
  if (p.schema.status != CheckStatus::pass) {
    p.text = std::move(receipt.text());
    return p;
  }
  reconcile::ReadReceipt read(std::move(receipt));  // containers built as the rules read them
  p.own = reconcile::reconcile_receipt(read, derive_every_record());
  p.facts = reconcile::record_facts(read);
  p.text = read.take_text();
  return p;
}

void MultiRun::add(PreparedRecord& record) {
  const std::size_t index = records_;
  const Check& schema = record.schema;
  Check rec;
  rec.name = "reconcile[" + std::to_string(index) + "]";
  if (schema.status == CheckStatus::pass) {
    reconcile::Result r;
    if (all_valid_) {
      r = multi_.add(*record.facts, std::move(*record.own));  // the facts' rest freed with the record
      send_cross_failures(r);
      const std::string prefix = "receipts[" + std::to_string(index) + "].";
      for (auto& f : r.failures) {
        if (f.field_path.compare(0, prefix.size(), prefix) == 0) f.field_path.erase(0, prefix.size());
      }
    } else {
      r = std::move(*record.own);
    }
    if (r.math_gate_skipped) {
      math_gate_steps_.push_back(index);
      for (int rule : r.skipped_rules) add_skipped_rule(rule);
      if (r.skipped_rules.empty()) add_skipped_rule(14);
    }
    rec = reconcile_check(r, rec.name);
    // Back with the record: its buffers are freed by the thread that prepared it (--jobs).
    record.own = std::move(r);
  } else {
    if (all_valid_) {
      all_valid_ = false;
      if (observer_ != nullptr) observer_->cross_failures_void();
      cross_failures_ = 0;
    }
    rec.status = CheckStatus::skip;
    rec.message = "skipped — schema validation failed for this record";
  }
  if (index == 0) untraced_ = !record.traced;
  note(schema);
  note(rec);
  if (observer_ != nullptr) observer_->record(index, record.label, schema, rec);
  ++records_;
}

MultiOutcome MultiRun::finish() {
  MultiOutcome out;
  Check rules;
  rules.name = "multi-step-rules-9-10";
  if (!all_valid_) {
    rules.status = CheckStatus::skip;
    rules.message =
        "skipped — at least one record failed schema validation; multi-step rules require all records to be "
        "structurally valid";
  } else {
    out.bundle = multi_.finish();
    send_cross_failures(out.bundle);
    out.has_coverage = !(out.bundle.rules_evaluated.empty() && out.bundle.gated_off.empty());
    if (cross_failures_ > 0) {
      rules.status = CheckStatus::fail;
      rules.message = std::to_string(cross_failures_) + " cross-record rule failure(s)";
      out.rules_evidence_sent = true;
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
    const std::string list = reconcile::join_rules(skipped_rules_);
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
  out.overall = std::string(verdict_.overall(options_));
  out.records = records_;
  out.math_gate_skipped = !math_gate_steps_.empty();
  out.skipped_rules = skipped_rules_;
  out.first_problem = first_problem_;
  return out;
}

void MultiRun::add_skipped_rule(int rule) {
  if (std::find(skipped_rules_.begin(), skipped_rules_.end(), rule) != skipped_rules_.end()) return;
  skipped_rules_.push_back(rule);
  std::sort(skipped_rules_.begin(), skipped_rules_.end());
}

// The cross-record check's evidence: every failure reconcileMultiStep reports, in its order.
void MultiRun::send_cross_failures(const reconcile::Result& r) {
  if (!all_valid_) return;
  for (const auto& f : r.failures) {
    if (observer_ != nullptr) observer_->cross_failure(f, cross_failures_);
    ++cross_failures_;
  }
  cross_failures_ += r.failures_dropped;
}

}  // namespace verify
