#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "reconcile/contained.hpp"
#include "reconcile/coverage.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile {

struct MultiStepReconciler::State {
  std::vector<std::unique_ptr<rules::CrossRecordRule>> cross;  // in the order their failures report
  BundleCoverage coverage;
  std::size_t records = 0;
  std::vector<std::size_t> skipped_records;
  bool skipped_rule14 = false;
  Options options;

  explicit State(const Options& o) : options(o) {
    cross.push_back(rules::make_rule_09_parameter_chain());
    cross.push_back(rules::make_rule_10_trace_identity());
    cross.push_back(rules::make_rule_17_bundle_binding());
    cross.push_back(rules::make_rule_25_optimizer_state_chain());
    cross.push_back(rules::make_rule_26_optimizer_config_constancy());
  }
};

MultiStepReconciler::MultiStepReconciler(const Options& options) : state_(std::make_unique<State>(options)) {}
MultiStepReconciler::~MultiStepReconciler() = default;

std::size_t MultiStepReconciler::records_seen() const noexcept { return state_->records; }

Result MultiStepReconciler::add(const Json& receipt) noexcept {
  return add(receipt, reconcile_receipt(receipt, state_->options));
}

Result MultiStepReconciler::add(const Json& receipt, Result own) noexcept {
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
    state_->coverage.observe(receipt);
    for (auto& rule : state_->cross) rule->observe(index, receipt);
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

Result reconcile_multi_step(std::span<const Json> receipts) noexcept {
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
