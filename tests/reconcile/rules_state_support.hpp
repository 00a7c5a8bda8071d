#pragma once
// Helpers for the rules_state_* tests: run one rule on a receipt and list its failures.
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/rules/rules.hpp"
#include "reconcile/tolerance.hpp"
#include "support/suite_paths.hpp"

namespace rules_state_test {

using Json = reconcile::Tree;

struct Run {
  reconcile::Result result;
  bool math_gate_skipped = false;
  [[nodiscard]] std::vector<std::string> paths() const {
    std::vector<std::string> out;
    for (const auto& f : result.failures) out.push_back(f.field_path);
    return out;
  }
  [[nodiscard]] std::size_t size() const { return result.failures.size(); }
  [[nodiscard]] const reconcile::Failure& at(std::size_t i) const { return result.failures.at(i); }
};

// Runs `check` (a per-record rule) with the tolerance the reconciler would give it.
template <class Check>
Run run_rule(const Json& receipt, Check check, reconcile::Tolerance tol = {1e-12, 1e-9}) {
  Run run;
  reconcile::FailureSink sink(run.result);
  reconcile::CascadeTracker cascades;
  const reconcile::ReadReceipt read(receipt);
  reconcile::RuleContext ctx{read.root(), read, tol, sink, cascades};
  using R = decltype(check(ctx));
  if constexpr (std::is_same_v<R, reconcile::rules::Rule14Outcome>) {
    run.math_gate_skipped = check(ctx).math_gate_skipped;
  } else {
    check(ctx);
  }
  return run;
}

// Feeds records to one cross-record rule and returns its failures.
inline Run run_cross(reconcile::rules::CrossRecordRule& rule, const std::vector<Json>& records) {
  Run run;
  for (std::size_t i = 0; i < records.size(); ++i) rule.observe(i, reconcile::ReadReceipt(records[i]));
  reconcile::FailureSink sink(run.result);
  rule.finish(sink);
  return run;
}

inline std::vector<Json> load_jsonl(const std::string& relative) {
  std::ifstream in(suite_test::source_dir() + "/" + relative);
  std::vector<Json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(Json::parse(line));
  }
  return out;
}

}  // namespace rules_state_test
