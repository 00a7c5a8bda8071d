#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "reconcile/contained.hpp"
#include "reconcile/coverage.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile {

namespace {

// In the order their failures report.
std::vector<std::unique_ptr<rules::CrossRecordRule>> cross_record_rules() {
  std::vector<std::unique_ptr<rules::CrossRecordRule>> cross;
  cross.push_back(rules::make_rule_09_parameter_chain());
  cross.push_back(rules::make_rule_10_trace_identity());
  cross.push_back(rules::make_rule_17_bundle_binding());
  cross.push_back(rules::make_rule_25_optimizer_state_chain());
  cross.push_back(rules::make_rule_26_optimizer_config_constancy());
  return cross;
}

}  // namespace

struct RecordFacts::Data {
  std::vector<std::unique_ptr<rules::RecordNotes>> notes;  // one per cross-record rule, in order
  CoverageNotes coverage;
  std::exception_ptr error;
};

RecordFacts::RecordFacts() = default;
RecordFacts::~RecordFacts() = default;
RecordFacts::RecordFacts(RecordFacts&&) noexcept = default;
RecordFacts& RecordFacts::operator=(RecordFacts&&) noexcept = default;

RecordFacts record_facts(const ReadReceipt& receipt) noexcept {
  // notes() is const and reads no state: one set of rules serves every thread.
  static const auto rules = cross_record_rules();
  RecordFacts facts;
  try {
    facts.data_ = std::make_unique<RecordFacts::Data>();
    try {
      facts.data_->coverage = coverage_notes(receipt.root());
      for (const auto& rule : rules) facts.data_->notes.push_back(rule->notes(receipt));
    } catch (...) {
      facts.data_->error = std::current_exception();
    }
  } catch (...) {
    facts.data_.reset();  // no room for the facts: add() reports it
  }
  return facts;
}

struct MultiStepReconciler::State {
  std::vector<std::unique_ptr<rules::CrossRecordRule>> cross = cross_record_rules();
  BundleCoverage coverage;
  std::size_t records = 0;
  std::vector<std::size_t> skipped_records;
  bool skipped_rule14 = false;
  Options options;

  explicit State(const Options& o) : options(o) {}
};

MultiStepReconciler::MultiStepReconciler(const Options& options) : state_(std::make_unique<State>(options)) {}
MultiStepReconciler::~MultiStepReconciler() = default;

std::size_t MultiStepReconciler::records_seen() const noexcept { return state_->records; }

RecordFacts record_facts(const Tree& receipt) noexcept {
  RecordFacts facts;
  try {
    return record_facts(ReadReceipt(receipt));
  } catch (...) {
    return facts;  // no room to read it: add() reports it
  }
}

Result MultiStepReconciler::add(const Tree& receipt) noexcept {
  try {
    const ReadReceipt read(receipt);
    return add(read, reconcile_receipt(read, state_->options));
  } catch (...) {
    RecordFacts none;
    return add(none, Result());  // no room to read it: reported as the record's failure
  }
}

Result MultiStepReconciler::add(const ReadReceipt& receipt, Result own) noexcept {
  RecordFacts facts = record_facts(receipt);
  return add(facts, std::move(own));
}

Result MultiStepReconciler::add(RecordFacts& facts, Result own) noexcept {
  const std::size_t index = state_->records++;
  char at[48];  // no allocation outside contained()
  std::snprintf(at, sizeof at, "receipts[%zu]", index);
  return contained(at, "Record", [&] {
    Result result = std::move(own);
    const std::string prefix = std::string(at) + ".";
    for (auto& f : result.failures) f.field_path.insert(0, prefix);
    if (result.math_gate_skipped) {
      state_->skipped_records.push_back(index);
      state_->skipped_rule14 = true;
    }
    if (!facts.data_) throw std::bad_alloc();
    if (facts.data_->error) std::rethrow_exception(facts.data_->error);
    state_->coverage.observe(facts.data_->coverage);
    for (std::size_t k = 0; k < state_->cross.size(); ++k) state_->cross[k]->observe(index, *facts.data_->notes[k]);
    return result;
  });
}

Result MultiStepReconciler::finish() noexcept {
  return contained("receipts", "Bundle", [&] {
    Result result;
    FailureSink sink(result);
    for (auto& rule : state_->cross) rule->finish(sink);
    result.ok = sink.empty();
    const RuleSet coverage = state_->coverage.result();
    result.rules_evaluated = coverage.evaluated();
    result.gated_off = coverage.gated_off();
    if (state_->skipped_rule14) {
      result.math_gate_skipped = true;
      result.skipped_rules = {14};
      result.math_gate_skipped_records = state_->skipped_records;
    }
    return result;
  });
}

Result reconcile_multi_step(std::span<const Tree> receipts) noexcept {
  return contained("receipts", "Bundle", [&] {
    MultiStepReconciler multi;
    Result all;
    FailureSink sink(all);
    for (const auto& r : receipts) {
      Result one = multi.add(r);
      for (auto& f : one.failures) sink.add(std::move(f));
      all.failures_dropped += one.failures_dropped;
    }
    Result cross = multi.finish();
    for (auto& f : cross.failures) sink.add(std::move(f));
    all.failures_dropped += cross.failures_dropped;
    all.ok = sink.empty();
    all.rules_evaluated = std::move(cross.rules_evaluated);
    all.gated_off = std::move(cross.gated_off);
    all.math_gate_skipped = cross.math_gate_skipped;
    all.skipped_rules = std::move(cross.skipped_rules);
    all.math_gate_skipped_records = std::move(cross.math_gate_skipped_records);
    return all;
  });
}

}  // namespace reconcile
